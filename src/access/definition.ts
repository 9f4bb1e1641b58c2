import type { Node, YAMLMap } from 'yaml';
import { yamlPackage } from '../core/index.js';
import { type ApprovalMode, isApprovalMode, PERMISSION_MODE_ALIASES } from './approval-mode.js';
import { AgentDefinitionError } from './definition-error.js';

/** Where a definition came from; the higher source wins on a name clash. */
export type DefinitionSource = 'programmatic' | 'project' | 'user';

/**
 * A sub-agent definition. Everything here is data the runtime enforces; the `systemPrompt`
 * carries no permissions.
 */
export interface AgentDefinition {
  readonly name: string;
  readonly description: string;
  readonly systemPrompt: string;
  /** Tool patterns the agent may use; absent = inherit the parent's set; `[]` = none. */
  readonly tools?: readonly string[];
  /** Tool patterns removed; `Tool(specifier)` entries become scoped deny rules instead. */
  readonly disallowedTools?: readonly string[];
  readonly approvalMode?: ApprovalMode;
  readonly model?: string;
  readonly maxTurns?: number;
  readonly maxTimeMinutes?: number;
  readonly background?: boolean;
  /** MCP servers this agent adds, by name (spec objects are the runtime's business). */
  readonly mcpServers?: Readonly<Record<string, unknown>>;
  readonly source: DefinitionSource;
  /** File the definition was read from (absent for programmatic ones). */
  readonly path?: string;
  /** Non-fatal findings (unknown keys, ignored fields). */
  readonly warnings: readonly string[];
}

/** Names a definition may not take: they collide with roles and built-in words. */
export const RESERVED_AGENT_NAMES: ReadonlySet<string> = new Set([
  'self',
  'system',
  'user',
  'model',
  'tool',
  'config',
  'default',
  'main',
]);

const NAME_PATTERN = /^[\p{L}\p{N}_-]+$/u;
const KNOWN_KEYS = new Set([
  'name',
  'description',
  'tools',
  'disallowedTools',
  'disallowed_tools',
  'approvalMode',
  'approval_mode',
  'permissionMode',
  'model',
  'modelConfig',
  'maxTurns',
  'max_turns',
  'runConfig',
  'background',
  'mcpServers',
  'color',
  'hooks',
  'skills',
  'memory',
  'effort',
]);

/** Checks a definition name; returns the problem or undefined. */
export function agentNameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed.length < 2 || trimmed.length > 50) return 'must be 2 to 50 characters';
  if (!NAME_PATTERN.test(trimmed)) return 'may contain only letters, digits, "-" and "_"';
  if (/^[-_]|[-_]$/.test(trimmed)) return 'must not start or end with "-" or "_"';
  if (RESERVED_AGENT_NAMES.has(trimmed.toLowerCase())) return `"${trimmed}" is reserved`;
  return undefined;
}

/**
 * Parses one definition file (YAML frontmatter between `---` lines, Markdown body = system
 * prompt). Throws {@link AgentDefinitionError} naming the line and field that was wrong. Pure:
 * the caller reads the file.
 */
export function parseAgentDefinition(
  text: string,
  path: string,
  source: Exclude<DefinitionSource, 'programmatic'>,
): AgentDefinition {
  const seen: { name?: string } = {};
  try {
    return parseDefinitionText(text, path, source, seen);
  } catch (err) {
    if (err instanceof AgentDefinitionError && seen.name !== undefined) err.agentName = seen.name;
    throw err;
  }
}

function parseDefinitionText(
  text: string,
  path: string,
  source: Exclude<DefinitionSource, 'programmatic'>,
  seen: { name?: string },
): AgentDefinition {
  const normalised = text.replace(/\r\n?/g, '\n');
  const match = /^---\n([\s\S]*?)\n?---(?:\n([\s\S]*))?$/.exec(normalised);
  if (!match) throw new AgentDefinitionError(path, 1, undefined, 'missing YAML frontmatter (--- … ---)');
  const frontmatter = match[1] ?? '';
  const body = (match[2] ?? '').trim();
  const { isMap, isScalar, isSeq, LineCounter, parseDocument } = yamlPackage();
  const lines = new LineCounter();
  const doc = parseDocument(frontmatter, { lineCounter: lines, uniqueKeys: true });
  // Frontmatter starts on line 2 of the file.
  const lineOf = (offset: number | undefined) => (offset === undefined ? 1 : lines.linePos(offset).line + 1);
  const firstError = doc.errors[0];
  if (firstError) {
    throw new AgentDefinitionError(
      path,
      (firstError.linePos?.[0]?.line ?? 0) + 1,
      undefined,
      `invalid YAML: ${firstError.message.split('\n')[0]}`,
    );
  }
  if (!isMap(doc.contents))
    throw new AgentDefinitionError(path, 2, undefined, 'frontmatter must be a mapping');
  const map = doc.contents as YAMLMap;
  const fields = new Map<string, { node: Node | null; line: number; value: unknown }>();
  const warnings: string[] = [];
  for (const pair of map.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const node = (pair.value ?? null) as Node | null;
    const keyNode = pair.key as Node | null;
    fields.set(key, {
      node,
      line: lineOf(keyNode?.range?.[0]),
      value: node === null ? null : node.toJSON(),
    });
    if (!KNOWN_KEYS.has(key)) warnings.push(`unknown field "${key}" ignored`);
  }
  const fail = (field: string, message: string, nodeOverride?: Node | null): never => {
    const f = fields.get(field);
    const offset = nodeOverride?.range?.[0];
    throw new AgentDefinitionError(
      path,
      offset !== undefined ? lineOf(offset) : (f?.line ?? 2),
      field,
      message,
    );
  };
  const get = (...keys: string[]) => {
    for (const k of keys) if (fields.has(k)) return { key: k, ...fields.get(k)! };
    return undefined;
  };

  const nameField = get('name');
  if (!nameField || nameField.value === null || nameField.value === '') fail('name', 'is required');
  const nameValue = nameField!.value;
  if (typeof nameValue !== 'string' && typeof nameValue !== 'number') fail('name', 'must be a string');
  const name = String(nameValue).trim();
  const nameProblem = agentNameProblem(name);
  if (nameProblem) fail('name', nameProblem);
  seen.name = name;

  const descField = get('description');
  if (!descField || typeof descField.value !== 'string' || descField.value.trim() === '') {
    fail('description', 'is required and must be a non-empty string');
  }
  const description = String(descField!.value).trim();

  const toolList = (key: string, primary: string): readonly string[] | undefined => {
    const f = get(primary, key);
    if (!f || f.value === null) return undefined;
    if (typeof f.value === 'string') {
      const parts = splitToolList(f.value);
      if (parts.some((p) => p === '')) fail(f.key, 'contains an empty entry');
      return parts;
    }
    if (!isSeq(f.node)) return fail(f.key, 'must be a list or a comma-separated string');
    const out: string[] = [];
    for (const item of f.node.items) {
      const v = isScalar(item) ? item.value : undefined;
      if (typeof v !== 'string') fail(f.key, 'every entry must be a string', item as Node);
      if ((v as string).trim() === '') fail(f.key, 'contains an empty entry', item as Node);
      out.push((v as string).trim());
    }
    return out;
  };
  const tools = toolList('tools', 'tools');
  const disallowedTools = toolList('disallowed_tools', 'disallowedTools');

  let approvalMode: ApprovalMode | undefined;
  const modeField = get('approvalMode', 'approval_mode');
  if (modeField && modeField.value !== null && modeField.value !== '') {
    if (!isApprovalMode(modeField.value)) {
      fail(
        modeField.key,
        `must be one of plan, default, auto-edit, auto, yolo, bubble (got ${JSON.stringify(modeField.value)})`,
      );
    }
    approvalMode = modeField.value as ApprovalMode;
  }
  const permissionField = get('permissionMode');
  if (permissionField && permissionField.value !== null && permissionField.value !== '') {
    const v = permissionField.value;
    // An unreadable mode is refused rather than dropped: dropping it would let the agent inherit
    // a more permissive parent mode than its author wrote.
    if (typeof v !== 'string' || !Object.hasOwn(PERMISSION_MODE_ALIASES, v)) {
      fail(
        'permissionMode',
        `must be one of default, plan, acceptEdits, auto, bypassPermissions, dontAsk (got ${JSON.stringify(v)})`,
      );
    }
    if (approvalMode === undefined) approvalMode = PERMISSION_MODE_ALIASES[v as string];
    else warnings.push('permissionMode ignored: approvalMode is set');
  }

  let model: string | undefined;
  const modelField = get('model');
  if (modelField && modelField.value !== null) {
    if (typeof modelField.value !== 'string') fail('model', 'must be a string');
    model = modelField.value as string;
  } else {
    const legacy = get('modelConfig');
    const m = (legacy?.value as { model?: unknown } | null)?.model;
    if (legacy && m !== undefined) {
      if (typeof m !== 'string') fail('modelConfig', 'model must be a string');
      model = m as string;
    }
  }

  const positiveInt = (field: string, v: unknown, node?: Node | null): number => {
    const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0) {
      return fail(field, `must be a positive integer (got ${JSON.stringify(v)})`, node);
    }
    return n;
  };
  let maxTurns: number | undefined;
  let maxTimeMinutes: number | undefined;
  const runConfig = get('runConfig');
  if (runConfig && runConfig.value !== null) {
    if (typeof runConfig.value !== 'object' || Array.isArray(runConfig.value))
      fail('runConfig', 'must be a mapping');
    const rc = runConfig.value as Record<string, unknown>;
    if (rc.max_turns !== undefined) maxTurns = positiveInt('runConfig', rc.max_turns);
    if (rc.max_time_minutes !== undefined) {
      const t = rc.max_time_minutes;
      if (typeof t !== 'number' || !(t > 0)) fail('runConfig', 'max_time_minutes must be a positive number');
      maxTimeMinutes = t as number;
    }
  }
  const turnsField = get('maxTurns', 'max_turns');
  if (turnsField && turnsField.value !== null) maxTurns = positiveInt(turnsField.key, turnsField.value);

  let background: boolean | undefined;
  const bgField = get('background');
  if (bgField && bgField.value !== null) {
    const v = bgField.value;
    if (v === true || v === 'true') background = true;
    else if (v === false || v === 'false') background = false;
    else fail('background', `must be true or false (got ${JSON.stringify(v)})`);
  }

  let mcpServers: Record<string, unknown> | undefined;
  const mcpField = get('mcpServers');
  if (mcpField && mcpField.value !== null) {
    const v = mcpField.value;
    if (Array.isArray(v)) {
      mcpServers = {};
      for (const entry of v) {
        if (typeof entry === 'string') mcpServers[entry] = {};
        else if (entry && typeof entry === 'object' && !Array.isArray(entry))
          Object.assign(mcpServers, entry);
        else fail('mcpServers', 'list entries must be server names or mappings');
      }
    } else if (typeof v === 'object') {
      for (const [k, spec] of Object.entries(v as Record<string, unknown>)) {
        if (spec !== null && (typeof spec !== 'object' || Array.isArray(spec))) {
          fail('mcpServers', `server "${k}" must be a mapping`);
        }
      }
      mcpServers = v as Record<string, unknown>;
    } else fail('mcpServers', 'must be a mapping of server name to spec');
  }

  if (body === '') warnings.push('empty body: the agent has no system prompt');
  return {
    name,
    description,
    systemPrompt: body,
    ...(tools !== undefined ? { tools } : {}),
    ...(disallowedTools !== undefined ? { disallowedTools } : {}),
    ...(approvalMode !== undefined ? { approvalMode } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(maxTurns !== undefined ? { maxTurns } : {}),
    ...(maxTimeMinutes !== undefined ? { maxTimeMinutes } : {}),
    ...(background !== undefined ? { background } : {}),
    ...(mcpServers !== undefined ? { mcpServers } : {}),
    source,
    path,
    warnings,
  };
}

/**
 * Splits `"Read, Bash(git diff:*), mcp__a"` on top-level commas (commas inside parentheses belong
 * to a specifier such as `agent(worker, researcher)`).
 */
export function splitToolList(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim() !== '' || out.length > 0) out.push(current.trim());
  return out;
}

/** A programmatic definition with defaults filled in and its name checked. */
export function defineAgent(
  def: Omit<AgentDefinition, 'source' | 'warnings' | 'systemPrompt'> & { systemPrompt?: string },
): AgentDefinition {
  const problem = agentNameProblem(def.name);
  if (problem) throw new AgentDefinitionError(`<programmatic:${def.name}>`, 0, 'name', problem);
  if (def.approvalMode !== undefined && !isApprovalMode(def.approvalMode)) {
    throw new AgentDefinitionError(`<programmatic:${def.name}>`, 0, 'approvalMode', 'is not a known mode');
  }
  return { systemPrompt: '', ...def, source: 'programmatic', warnings: [] };
}

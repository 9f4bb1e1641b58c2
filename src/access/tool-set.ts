import type { AgentDefinition } from './definition.js';
import { parseRule } from './rule-parser.js';
import type { CompiledRuleSet } from './rule-set.js';
import { BUILTIN_TOOL_KINDS, canonicalToolName } from './tool-names.js';
import { compileToolPattern } from './tool-pattern.js';

/**
 * Removed from every spawned agent, whatever its definition says: they belong to the main loop
 * (task output, plan-mode state) or need a person at the keyboard (ask_user). `agent` is
 * depth-gated separately.
 */
export const GLOBAL_DENY_FOR_SPAWNED: readonly string[] = [
  'task_output',
  'enter_plan_mode',
  'exit_plan_mode',
  'ask_user',
];

/**
 * Built-in tools a background agent may keep. Built-ins not listed (ask_user, agent, plan mode,
 * task management, send_message) either wait for a person or drive the main loop. MCP and domain
 * tools are not built-ins and pass this layer: they stay subject to the definition, the rules,
 * policy and approval (a background ask is denied, never waited on).
 */
export const BACKGROUND_ALLOWLIST: readonly string[] = [
  'read_file',
  'grep',
  'glob',
  'list_directory',
  'web_search',
  'web_fetch',
  'edit',
  'write_file',
  'shell',
  'todo_write',
  'tool_search',
  'tool_call',
  'exec',
];

/** What an in-process teammate gets on top of the background allowlist. */
export const TEAMMATE_EXTENSION: readonly string[] = [
  'task_create',
  'task_get',
  'task_list',
  'task_update',
  'send_message',
];

export const DEFAULT_MAX_AGENT_DEPTH = 5;
/** Upper clamp for a configured depth. */
export const MAX_AGENT_DEPTH_LIMIT = 16;

export type ToolRemovalReason =
  | 'permission-deny'
  | 'not-in-parent'
  | 'global-deny'
  | 'depth'
  | 'background'
  | 'not-listed'
  | 'disallowed';

/** Where the agent sits. Absent → the main agent. */
export interface AgentPosition {
  /** 1 for a sub-agent of the main agent. Unknown depth closes `agent` (fail closed). */
  readonly depth?: number;
  readonly background?: boolean;
  readonly teammate?: boolean;
}

export interface ResolveAgentToolsInput {
  /** Names of the tools registered for this session (built-ins, domain, `mcp__…`). */
  readonly available: readonly string[];
  /** The parent's resolution; the child's set is always within it. */
  readonly parent?: ResolvedAgentTools;
  /** Absent for the main agent. */
  readonly position?: AgentPosition;
  readonly definition?: Pick<AgentDefinition, 'name' | 'tools' | 'disallowedTools'>;
  /** Permission rules: a whole-tool deny removes the tool for every agent. */
  readonly rules?: CompiledRuleSet;
  readonly maxDepth?: number;
  /** Replaces {@link BACKGROUND_ALLOWLIST}. */
  readonly backgroundAllowlist?: readonly string[];
}

export interface ResolvedAgentTools {
  readonly allowed: ReadonlySet<string>;
  /** Every available tool that was left out, with the first layer that removed it. */
  readonly removed: ReadonlyMap<string, ToolRemovalReason>;
  /** `disallowedTools` entries with a specifier (`shell(rm *)`): scoped deny rules for this agent. */
  readonly scopedDenyRules: readonly string[];
  /** `tools` entries that matched no available tool. */
  readonly unknownTools: readonly string[];
  /** `tools` entries that were refused as written (e.g. `shell(git *)` in an allowlist). */
  readonly ignoredEntries: readonly string[];
  /** From `agent(a, b)` in `tools`: the sub-agent types this agent may start (absent = any). */
  readonly allowedAgentTypes?: readonly string[];
  readonly spawned: boolean;
  readonly depth: number;
}

/**
 * Decides which tools an agent may see and call. Pure. Layers, in order: permission whole-tool
 * deny; the parent's set; for spawned agents the global deny set and the depth gate on `agent`;
 * the background allowlist (plus the teammate extension); the definition's `tools`; its
 * `disallowedTools`. Each layer only removes, so the result is a subset of the parent's.
 */
export function resolveAgentTools(input: ResolveAgentToolsInput): ResolvedAgentTools {
  const spawned = input.position !== undefined || input.parent !== undefined;
  const depth = spawned ? (input.position?.depth ?? Number.NaN) : 0;
  const maxDepth = clampDepth(input.maxDepth);
  const teammate = input.position?.teammate === true;
  const background = input.position?.background === true;
  const removed = new Map<string, ToolRemovalReason>();
  let current: string[] = [];
  const drop = (name: string, reason: ToolRemovalReason) => {
    if (!removed.has(name)) removed.set(name, reason);
  };
  /** Removes every current tool `m` matches, recording why; returns what is left. */
  const without = (tools: string[], m: (n: string) => boolean, reason: ToolRemovalReason): string[] =>
    tools.filter((n) => {
      if (!m(n)) return true;
      drop(n, reason);
      return false;
    });
  for (const name of new Set(input.available)) {
    if (input.rules?.wholeToolDenied(name)) drop(name, 'permission-deny');
    else if (input.parent && !input.parent.allowed.has(name)) drop(name, 'not-in-parent');
    else current.push(name);
  }
  if (spawned) {
    const global = new Set(GLOBAL_DENY_FOR_SPAWNED);
    // depth+1 is the depth the new agent would run at; NaN (unknown) compares false: closed.
    const mayNest = !teammate && depth + 1 <= maxDepth;
    current = current.filter((n) => {
      if (global.has(n)) drop(n, 'global-deny');
      else if (n === 'agent' && !mayNest) drop(n, 'depth');
      else return true;
      return false;
    });
    if (background || teammate) {
      const allow = new Set(input.backgroundAllowlist ?? BACKGROUND_ALLOWLIST);
      if (teammate) for (const t of TEAMMATE_EXTENSION) allow.add(t);
      current = current.filter((n) => {
        if (!Object.hasOwn(BUILTIN_TOOL_KINDS, n) || allow.has(n)) return true;
        drop(n, 'background');
        return false;
      });
    }
  } else if (!(maxDepth >= 1)) {
    current = without(current, (n) => n === 'agent', 'depth');
  }

  const unknownTools: string[] = [];
  const ignoredEntries: string[] = [];
  let allowedAgentTypes: string[] | undefined;
  const listed = input.definition?.tools;
  if (listed !== undefined) {
    const matchers: ((n: string) => boolean)[] = [];
    let wildcard = false;
    for (const entry of listed) {
      const e = entry.trim();
      if (e === '*') {
        wildcard = true;
        continue;
      }
      const parsed = parseRule(e, 'allow');
      if ('error' in parsed) {
        ignoredEntries.push(entry);
        continue;
      }
      if (parsed.rule.specifier !== undefined) {
        if (parsed.rule.tool === 'agent' && parsed.rule.kind === 'agent-type') {
          allowedAgentTypes = [
            ...(allowedAgentTypes ?? []),
            ...parsed.rule.specifier.split(',').map((t) => t.trim()),
          ];
          matchers.push((n) => n === 'agent');
        } else {
          // A scoped entry in an allowlist would need "this tool, but only these calls"; refusing
          // it keeps the list fail-closed. Put the scope in permission rules instead.
          ignoredEntries.push(entry);
        }
        continue;
      }
      const m = compileToolPattern(parsed.rule.tool);
      matchers.push(m);
      if (!input.available.some(m)) unknownTools.push(entry);
    }
    if (!wildcard) {
      current = current.filter((n) => {
        if (matchers.some((m) => m(n))) return true;
        drop(n, 'not-listed');
        return false;
      });
    }
  }

  const scopedDenyRules: string[] = [];
  for (const entry of input.definition?.disallowedTools ?? []) {
    const parsed = parseRule(entry, 'deny');
    if ('error' in parsed) {
      // An unreadable deny entry cannot be honoured narrowly; honour it broadly by tool name.
      const name = canonicalToolName(entry.split('(')[0]!.trim());
      current = without(current, (n) => n === name, 'disallowed');
      continue;
    }
    if (parsed.rule.specifier !== undefined) {
      scopedDenyRules.push(entry.trim());
      continue;
    }
    const m = compileToolPattern(parsed.rule.tool);
    current = without(current, m, 'disallowed');
  }

  const parentTypes = input.parent?.allowedAgentTypes;
  if (parentTypes !== undefined) {
    const lower = new Set(parentTypes.map((t) => t.toLowerCase()));
    allowedAgentTypes = (allowedAgentTypes ?? parentTypes).filter((t) => lower.has(t.toLowerCase()));
  }
  return {
    allowed: new Set(current),
    removed,
    scopedDenyRules: [...(input.parent?.scopedDenyRules ?? []), ...scopedDenyRules],
    unknownTools,
    ignoredEntries,
    ...(allowedAgentTypes !== undefined ? { allowedAgentTypes } : {}),
    spawned,
    depth: spawned ? depth : 0,
  };
}

function clampDepth(max: number | undefined): number {
  if (max === undefined || !Number.isFinite(max)) return DEFAULT_MAX_AGENT_DEPTH;
  return Math.max(0, Math.min(MAX_AGENT_DEPTH_LIMIT, Math.floor(max)));
}

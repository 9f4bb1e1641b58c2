import { ProtocolError } from './errors.js';

/**
 * Run parameters a host may change while a session runs (`set_variable`; the Claude dialect's
 * `apply_flag_settings` maps onto the same names). Pure: validation against what the session
 * allows; the runtime applies the result. An update can only narrow: limits stay at or below the
 * ones the session started with, a tool list stays within what the access layer granted.
 */
export interface RunParameters {
  readonly maxTurns: number;
  readonly maxTokens: number | undefined;
  readonly maxCostUsd: number | undefined;
  /** The host's narrowing of the tool set; undefined: every granted tool. */
  readonly allowedTools: readonly string[] | undefined;
  readonly disallowedTools: readonly string[];
  /** How long the host has to answer a permission request (an output-line option). */
  readonly permissionTimeoutMs: number;
  /** Stream text deltas as `stream_event` messages (an output-line option). */
  readonly includePartialMessages: boolean;
}

/** What the session allows: updates stay within these. */
export interface RunCeilings {
  readonly maxTurns: number;
  readonly maxTokens: number | undefined;
  readonly maxCostUsd: number | undefined;
  /** Tools the main agent was granted (definition, rules, trust, mode): the widest tool list. */
  readonly tools: ReadonlySet<string>;
  /** The model provider reports cost, so a cost budget can be enforced. */
  readonly reportsCost: boolean;
  /** The model provider in use, for the message when it does not report cost. */
  readonly provider: string;
}

export const RUN_VARIABLE_NAMES = [
  'max_turns',
  'max_budget_tokens',
  'max_budget_usd',
  'allowed_tools',
  'disallowed_tools',
  'permission_timeout_ms',
  'include_partial_messages',
] as const;
export type RunVariableName = (typeof RUN_VARIABLE_NAMES)[number];

/** The SDKs' own spellings of the same parameters. */
const ALIASES: Readonly<Record<string, RunVariableName>> = {
  maxTurns: 'max_turns',
  max_session_turns: 'max_turns',
  maxBudgetTokens: 'max_budget_tokens',
  max_tokens: 'max_budget_tokens',
  maxBudgetUsd: 'max_budget_usd',
  allowedTools: 'allowed_tools',
  disallowedTools: 'disallowed_tools',
  permissionTimeoutMs: 'permission_timeout_ms',
  includePartialMessages: 'include_partial_messages',
};

/** A value the session cannot take; answered as a control error naming what and why. */
export class RunVariableError extends ProtocolError {}

function fail(name: string, message: string): never {
  throw new RunVariableError('protocol.invalid_variable', message, { where: `set_variable ${name}` });
}

/** The canonical name, or an error naming the known ones. */
export function runVariableName(name: string): RunVariableName {
  if ((RUN_VARIABLE_NAMES as readonly string[]).includes(name)) return name as RunVariableName;
  if (Object.hasOwn(ALIASES, name)) return ALIASES[name] as RunVariableName;
  return fail(
    name.slice(0, 64),
    `unknown variable ${JSON.stringify(name.slice(0, 64))}; known: ${RUN_VARIABLE_NAMES.join(', ')}`,
  );
}

function positiveInt(name: string, v: unknown, max: number, ceiling: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1)
    fail(name, `${name} must be a positive integer`);
  if (v > max) fail(name, `${name} may be at most ${max} (${ceiling}); an update can only narrow`);
  return v;
}

function toolList(name: string, v: unknown): string[] {
  if (!Array.isArray(v) || v.some((t) => typeof t !== 'string' || t.length === 0 || t.length > 128)) {
    fail(name, `${name} must be a list of tool names`);
  }
  if (v.length > 1000) fail(name, `${name} may name at most 1000 tools`);
  return [...new Set(v as string[])];
}

/** One change, as it is audited and announced. */
export interface RunVariableChange {
  readonly name: RunVariableName;
  readonly previous: unknown;
  readonly value: unknown;
  readonly next: RunParameters;
}

function current(p: RunParameters, name: RunVariableName): unknown {
  switch (name) {
    case 'max_turns':
      return p.maxTurns;
    case 'max_budget_tokens':
      return p.maxTokens ?? null;
    case 'max_budget_usd':
      return p.maxCostUsd ?? null;
    case 'allowed_tools':
      return p.allowedTools ?? null;
    case 'disallowed_tools':
      return p.disallowedTools;
    case 'permission_timeout_ms':
      return p.permissionTimeoutMs;
    case 'include_partial_messages':
      return p.includePartialMessages;
  }
}

/**
 * Validates `value` for `name` against the session's ceilings and returns the parameters after
 * the change. `null` resets a limit or list to the session's own (its ceiling). Throws
 * {@link RunVariableError} naming the variable and the bound.
 */
export function applyRunVariable(
  params: RunParameters,
  ceilings: RunCeilings,
  rawName: string,
  value: unknown,
  canonicalTool: (name: string) => string = (n) => n,
): RunVariableChange {
  const name = runVariableName(rawName);
  const previous = current(params, name);
  let next: RunParameters;
  switch (name) {
    case 'max_turns':
      next = {
        ...params,
        maxTurns:
          value === null
            ? ceilings.maxTurns
            : positiveInt(name, value, ceilings.maxTurns, "the session's turn limit"),
      };
      break;
    case 'max_budget_tokens': {
      const max = ceilings.maxTokens ?? Number.MAX_SAFE_INTEGER;
      next = {
        ...params,
        maxTokens:
          value === null ? ceilings.maxTokens : positiveInt(name, value, max, "the session's token budget"),
      };
      break;
    }
    case 'max_budget_usd': {
      if (value !== null && !ceilings.reportsCost) {
        fail(
          name,
          `the model provider (${ceilings.provider}) does not report cost, so a cost budget cannot be enforced; use max_budget_tokens`,
        );
      }
      if (value !== null && (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)) {
        fail(name, `${name} must be a positive number of dollars`);
      }
      if (typeof value === 'number' && ceilings.maxCostUsd !== undefined && value > ceilings.maxCostUsd) {
        fail(
          name,
          `${name} may be at most ${ceilings.maxCostUsd} (the session's cost budget); an update can only narrow`,
        );
      }
      next = { ...params, maxCostUsd: value === null ? ceilings.maxCostUsd : (value as number) };
      break;
    }
    case 'allowed_tools': {
      if (value === null) {
        next = { ...params, allowedTools: undefined };
        break;
      }
      const list = toolList(name, value).map(canonicalTool);
      const beyond = list.filter((t) => !ceilings.tools.has(t));
      if (beyond.length > 0) {
        fail(
          name,
          `allowed_tools may only name tools the session was granted; not granted: ${beyond.slice(0, 20).join(', ')}`,
        );
      }
      next = { ...params, allowedTools: list };
      break;
    }
    case 'disallowed_tools':
      next = { ...params, disallowedTools: value === null ? [] : toolList(name, value).map(canonicalTool) };
      break;
    case 'permission_timeout_ms':
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1000 || value > 600_000) {
        fail(name, `${name} must be an integer from 1000 to 600000`);
      }
      next = { ...params, permissionTimeoutMs: value };
      break;
    case 'include_partial_messages':
      if (typeof value !== 'boolean') fail(name, `${name} must be true or false`);
      next = { ...params, includePartialMessages: value };
      break;
  }
  return { name, previous, value: current(next, name), next };
}

/**
 * The session's tool filter for these parameters: a tool is kept when the host's allowed list
 * (if any) names it and no disallowed entry does. `mcp__server` or a trailing `*` names a prefix.
 */
export function toolFilterOf(p: RunParameters): ((tool: string) => boolean) | undefined {
  if (p.allowedTools === undefined && p.disallowedTools.length === 0) return undefined;
  const allowed = p.allowedTools ? new Set(p.allowedTools) : undefined;
  const prefixes = p.disallowedTools
    .map((d) =>
      d.endsWith('*')
        ? d.slice(0, -1)
        : d.startsWith('mcp__') && !d.slice(5).includes('__')
          ? `${d}__`
          : undefined,
    )
    .filter((d): d is string => d !== undefined);
  const exact = new Set(p.disallowedTools);
  return (tool) =>
    (allowed === undefined || allowed.has(tool)) &&
    !exact.has(tool) &&
    !prefixes.some((pre) => tool.startsWith(pre));
}

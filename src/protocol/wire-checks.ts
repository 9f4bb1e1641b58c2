/**
 * Hand-written checks of what the host sends, equivalent to the zod schemas in `schemas.ts`
 * (a property test holds them to it). They exist because the stream-json path must answer
 * `initialize` and write `system/init` before anything heavy loads, and importing zod costs more
 * than the rest of the engine together. Each check returns undefined when the value is valid, or
 * the first problem as `path: message`.
 */

import type { PermissionUpdate } from '../access/permission-updates.js';

type Obj = Record<string, unknown>;
export type Problem = string | undefined;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function at(path: string, message: string): string {
  return path ? `${path}: ${message}` : message;
}

function str(v: unknown, path: string, min = 0, max = Number.POSITIVE_INFINITY): Problem {
  if (typeof v !== 'string') return at(path, 'expected string');
  if (v.length < min) return at(path, `expected at least ${min} characters`);
  if (v.length > max) return at(path, `expected at most ${max} characters`);
  return undefined;
}

function optional(v: unknown, check: (v: unknown) => Problem): Problem {
  return v === undefined ? undefined : check(v);
}

function strArray(v: unknown, path: string): Problem {
  if (!Array.isArray(v)) return at(path, 'expected array');
  const i = v.findIndex((x) => typeof x !== 'string');
  return i >= 0 ? at(`${path}.${i}`, 'expected string') : undefined;
}

function first(...problems: Problem[]): Problem {
  return problems.find((p) => p !== undefined);
}

const requestId = (v: unknown, path = 'request_id'): Problem => str(v, path, 1, 256);

export function checkControlRequestEnvelope(v: Obj): Problem {
  if (v['type'] !== 'control_request') return at('type', 'expected "control_request"');
  const rid = requestId(v['request_id']);
  if (rid) return rid;
  const r = v['request'];
  if (!isObj(r)) return at('request', 'expected object');
  return str(r['subtype'], 'request.subtype', 1, 128);
}

export function checkControlResponseEnvelope(v: Obj): Problem {
  if (v['type'] !== 'control_response') return at('type', 'expected "control_response"');
  const r = v['response'];
  if (!isObj(r)) return at('response', 'expected object');
  if (r['subtype'] === 'success') return requestId(r['request_id'], 'response.request_id');
  if (r['subtype'] === 'error') {
    const e = r['error'];
    return first(
      requestId(r['request_id'], 'response.request_id'),
      typeof e === 'string' || (isObj(e) && typeof e['message'] === 'string')
        ? undefined
        : at('response.error', 'expected string or { message }'),
      optional(r['error_code'], (c) => str(c, 'response.error_code')),
    );
  }
  return at('response.subtype', 'expected "success" or "error"');
}

export function checkCancelEnvelope(v: Obj): Problem {
  if (v['type'] !== 'control_cancel_request') return at('type', 'expected "control_cancel_request"');
  return requestId(v['request_id']);
}

export function checkUserMessage(v: Obj): Problem {
  if (v['type'] !== 'user') return at('type', 'expected "user"');
  const m = v['message'];
  if (!isObj(m)) return at('message', 'expected object');
  if (m['role'] !== 'user') return at('message.role', 'expected "user"');
  const c = m['content'];
  let content: Problem;
  if (typeof c === 'string') content = undefined;
  else if (Array.isArray(c)) {
    const i = c.findIndex((b) => !isObj(b) || typeof b['type'] !== 'string');
    content = i >= 0 ? at(`message.content.${i}`, 'expected a content block with a string type') : undefined;
  } else content = at('message.content', 'expected string or array');
  const parent = v['parent_tool_use_id'];
  return first(
    optional(v['session_id'], (s) => str(s, 'session_id')),
    content,
    parent === undefined || parent === null ? undefined : str(parent, 'parent_tool_use_id'),
    optional(v['uuid'], (s) => str(s, 'uuid')),
  );
}

function record(v: unknown, path: string): Problem {
  return isObj(v) ? undefined : at(path, 'expected object');
}

function nonNegative(v: unknown, path: string, integer = false): Problem {
  if (typeof v !== 'number' || !Number.isFinite(v)) return at(path, 'expected number');
  if (integer && !Number.isSafeInteger(v)) return at(path, 'expected integer');
  return v < 0 ? at(path, 'expected a non-negative number') : undefined;
}

function seededFile(v: unknown, path: string): Problem {
  if (!isObj(v)) return at(path, 'expected object');
  return first(
    str(v['path'], `${path}.path`, 1, 4096),
    optional(v['content'], (c) => str(c, `${path}.content`, 0, 8 * 1024 * 1024)),
    optional(v['mtime'], (m) => nonNegative(m, `${path}.mtime`)),
  );
}

const REQUEST_CHECKS: Readonly<Record<string, (r: Obj) => Problem>> = {
  initialize: (r) => {
    const sp = r['systemPrompt'];
    const hooks = r['hooks'];
    const sdk = r['sdkMcpServers'];
    const timeout = r['timeout'];
    return first(
      sp === undefined || typeof sp === 'string' ? undefined : strArray(sp, 'systemPrompt'),
      optional(r['appendSystemPrompt'], (s) => str(s, 'appendSystemPrompt')),
      hooks === undefined || hooks === null ? undefined : record(hooks, 'hooks'),
      sdk === undefined || isObj(sdk) ? undefined : strArray(sdk, 'sdkMcpServers'),
      optional(r['mcpServers'], (m) => record(m, 'mcpServers')),
      optional(r['disallowedTools'], (d) => strArray(d, 'disallowedTools')),
      optional(timeout, (t) => {
        if (!isObj(t)) return at('timeout', 'expected object');
        const c = t['canUseTool'];
        if (c === undefined) return undefined;
        return typeof c === 'number' && Number.isSafeInteger(c) && c > 0
          ? undefined
          : at('timeout.canUseTool', 'expected a positive integer');
      }),
    );
  },
  interrupt: (r) =>
    optional(r['cancel_queued'], (b) =>
      typeof b === 'boolean' ? undefined : at('cancel_queued', 'expected boolean'),
    ),
  set_permission_mode: (r) => str(r['mode'], 'mode', 1, 64),
  set_model: (r) =>
    r['model'] === undefined || r['model'] === null ? undefined : str(r['model'], 'model', 0, 512),
  seed_read_state: (r) => {
    // Either form may match (like a union): `{ files }` or Claude's `{ path, mtime }`.
    const filesForm = ((): Problem => {
      const files = r['files'];
      if (!Array.isArray(files)) return at('files', 'expected array');
      if (files.length > 10_000) return at('files', 'expected at most 10000 files');
      for (let i = 0; i < files.length; i++) {
        const p = seededFile(files[i], `files.${i}`);
        if (p) return p;
      }
      return undefined;
    })();
    if (!filesForm) return undefined;
    const pathForm = first(str(r['path'], 'path', 1, 4096), nonNegative(r['mtime'], 'mtime'));
    if (!pathForm) return undefined;
    return r['files'] !== undefined ? filesForm : pathForm;
  },
  mcp_status: () => undefined,
  mcp_server_status: () => undefined,
  supported_commands: () => undefined,
  get_context_usage: (r) =>
    optional(r['show_details'], (b) =>
      typeof b === 'boolean' ? undefined : at('show_details', 'expected boolean'),
    ),
  set_max_thinking_tokens: (r) =>
    r['max_thinking_tokens'] === undefined || r['max_thinking_tokens'] === null
      ? undefined
      : nonNegative(r['max_thinking_tokens'], 'max_thinking_tokens', true),
  set_effort: (r) => str(r['effort'], 'effort'),
  mcp_message: (r) =>
    first(str(r['server_name'], 'server_name'), 'message' in r ? undefined : at('message', 'required')),
  get_available_models: () => undefined,
  stop_task: (r) => str(r['task_id'], 'task_id'),
  set_variable: (r) =>
    first(str(r['name'], 'name', 1, 64), 'value' in r ? undefined : at('value', 'required (null resets)')),
  apply_flag_settings: (r) => record(r['settings'], 'settings'),
  mcp_set_servers: (r) => record(r['servers'], 'servers'),
  mcp_toggle: (r) =>
    first(
      str(r['serverName'], 'serverName', 1, 128),
      typeof r['enabled'] === 'boolean' ? undefined : at('enabled', 'expected boolean'),
    ),
  mcp_reconnect: (r) => str(r['serverName'], 'serverName', 1, 128),
};

/** Subtypes of host → engine requests Twinline understands. */
export const HOST_REQUEST_SUBTYPES: ReadonlySet<string> = new Set(Object.keys(REQUEST_CHECKS));

/** Checks a request body of a known subtype (see {@link HOST_REQUEST_SUBTYPES}). */
export function checkHostRequest(subtype: string, request: Obj): Problem {
  const check = Object.hasOwn(REQUEST_CHECKS, subtype) ? REQUEST_CHECKS[subtype] : undefined;
  if (!check) return at('subtype', `unknown subtype "${subtype}"`);
  return check(request);
}

/** The host's answer to `can_use_tool`, or undefined when it is not one. */
export type PermissionAnswer =
  | {
      readonly behavior: 'allow';
      readonly updatedInput?: unknown;
      readonly updatedPermissions?: readonly PermissionUpdate[];
    }
  | { readonly behavior: 'deny'; readonly message?: string; readonly interrupt?: boolean };

export function readPermissionResult(v: unknown): PermissionAnswer | undefined {
  if (!isObj(v)) return undefined;
  if (v['toolUseID'] !== undefined && typeof v['toolUseID'] !== 'string') return undefined;
  if (v['behavior'] === 'allow') {
    let updates: PermissionUpdate[] | undefined;
    if (v['updatedPermissions'] !== undefined) {
      // A garbled "always allow" makes the whole answer unreadable (the call is denied), never a
      // half-applied permission.
      updates = readPermissionUpdates(v['updatedPermissions']);
      if (!updates) return undefined;
    }
    return {
      behavior: 'allow',
      ...(v['updatedInput'] === undefined ? {} : { updatedInput: v['updatedInput'] }),
      ...(updates && updates.length > 0 ? { updatedPermissions: updates } : {}),
    };
  }
  if (v['behavior'] === 'deny') {
    const message = v['message'];
    const interrupt = v['interrupt'];
    if (message !== undefined && typeof message !== 'string') return undefined;
    if (interrupt !== undefined && typeof interrupt !== 'boolean') return undefined;
    return {
      behavior: 'deny',
      ...(message !== undefined ? { message } : {}),
      ...(interrupt !== undefined ? { interrupt } : {}),
    };
  }
  return undefined;
}

const DESTINATIONS = new Set(['session', 'cliArg', 'localSettings', 'projectSettings', 'userSettings']);
const BEHAVIOURS = new Set(['allow', 'deny', 'ask']);

/** A host's `updatedPermissions` list, or undefined when any entry is not a permission update. */
export function readPermissionUpdates(v: unknown): PermissionUpdate[] | undefined {
  if (!Array.isArray(v) || v.length > 100) return undefined;
  const out: PermissionUpdate[] = [];
  for (const u of v) {
    if (!isObj(u) || typeof u['destination'] !== 'string' || !DESTINATIONS.has(u['destination']))
      return undefined;
    const destination = u['destination'] as PermissionUpdate['destination'];
    switch (u['type']) {
      case 'addRules':
      case 'replaceRules':
      case 'removeRules': {
        const rules = u['rules'];
        if (typeof u['behavior'] !== 'string' || !BEHAVIOURS.has(u['behavior'])) return undefined;
        if (!Array.isArray(rules) || rules.length === 0 || rules.length > 100) return undefined;
        const parsed: { toolName: string; ruleContent?: string }[] = [];
        for (const r of rules) {
          if (
            !isObj(r) ||
            typeof r['toolName'] !== 'string' ||
            !r['toolName'] ||
            r['toolName'].length > 128
          ) {
            return undefined;
          }
          const content = r['ruleContent'];
          if (content !== undefined && (typeof content !== 'string' || content.length > 4096))
            return undefined;
          parsed.push({
            toolName: r['toolName'],
            ...(content !== undefined ? { ruleContent: content } : {}),
          });
        }
        out.push({
          type: u['type'],
          rules: parsed,
          behavior: u['behavior'] as 'allow' | 'deny' | 'ask',
          destination,
        });
        break;
      }
      case 'setMode':
        if (typeof u['mode'] !== 'string' || !u['mode'] || u['mode'].length > 64) return undefined;
        out.push({ type: 'setMode', mode: u['mode'], destination });
        break;
      case 'addDirectories':
      case 'removeDirectories': {
        const dirs = u['directories'];
        if (!Array.isArray(dirs) || dirs.some((d) => typeof d !== 'string')) return undefined;
        out.push({ type: u['type'], directories: dirs as string[], destination });
        break;
      }
      default:
        return undefined;
    }
  }
  return out;
}

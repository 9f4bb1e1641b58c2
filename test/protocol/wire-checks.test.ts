import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ControlCancelEnvelope,
  ControlRequestEnvelope,
  ControlResponseEnvelope,
  HOST_REQUEST_SCHEMAS,
  type HostRequestSubtype,
  PermissionResult,
  UserMessage,
} from '../../src/protocol/index.js';
import {
  checkCancelEnvelope,
  checkControlRequestEnvelope,
  checkControlResponseEnvelope,
  checkHostRequest,
  checkUserMessage,
  HOST_REQUEST_SUBTYPES,
  readPermissionResult,
} from '../../src/protocol/wire-checks.js';

type Obj = Record<string, unknown>;

/** Sets (or deletes) a value at a dotted path of a deep copy. */
function mutate(base: Obj, path: string[], value: unknown, remove: boolean): Obj {
  const copy = structuredClone(base);
  let cur: Obj = copy;
  for (const key of path.slice(0, -1)) {
    const next = cur[key];
    if (typeof next !== 'object' || next === null) return copy;
    cur = next as Obj;
  }
  const last = path.at(-1) as string;
  if (remove) delete cur[last];
  else cur[last] = value;
  return copy;
}

const values = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom('', 'x'.repeat(257), 'x'.repeat(513), -1, 1.5, 0, null, [], {}, ['a'], [{ type: 'text' }], {
    message: 'm',
  }),
);

/** Valid examples and the paths a mutation may touch. */
const BASES: {
  name: string;
  base: Obj;
  paths: string[][];
  zod: (v: unknown) => boolean;
  hand: (v: Obj) => boolean;
}[] = [
  {
    name: 'user',
    base: {
      type: 'user',
      session_id: '',
      message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      parent_tool_use_id: null,
    },
    paths: [
      ['type'],
      ['session_id'],
      ['message'],
      ['message', 'role'],
      ['message', 'content'],
      ['parent_tool_use_id'],
      ['uuid'],
      ['extra'],
    ],
    zod: (v) => UserMessage.safeParse(v).success,
    hand: (v) => checkUserMessage(v) === undefined,
  },
  {
    name: 'control_request',
    base: { type: 'control_request', request_id: 'r1', request: { subtype: 'interrupt' } },
    paths: [['type'], ['request_id'], ['request'], ['request', 'subtype']],
    zod: (v) => ControlRequestEnvelope.safeParse(v).success,
    hand: (v) => checkControlRequestEnvelope(v) === undefined,
  },
  {
    name: 'control_response',
    base: {
      type: 'control_response',
      response: { subtype: 'error', request_id: 'r1', error: 'no', error_code: 'x' },
    },
    paths: [
      ['type'],
      ['response'],
      ['response', 'subtype'],
      ['response', 'request_id'],
      ['response', 'error'],
      ['response', 'error_code'],
      ['response', 'response'],
    ],
    zod: (v) => ControlResponseEnvelope.safeParse(v).success,
    hand: (v) => checkControlResponseEnvelope(v) === undefined,
  },
  {
    name: 'control_cancel_request',
    base: { type: 'control_cancel_request', request_id: 'r1' },
    paths: [['type'], ['request_id']],
    zod: (v) => ControlCancelEnvelope.safeParse(v).success,
    hand: (v) => checkCancelEnvelope(v) === undefined,
  },
  {
    name: 'permission result',
    base: { behavior: 'deny', message: 'no', interrupt: false, toolUseID: 't' },
    paths: [
      ['behavior'],
      ['message'],
      ['interrupt'],
      ['toolUseID'],
      ['updatedInput'],
      ['updatedPermissions'],
    ],
    zod: (v) => PermissionResult.safeParse(v).success,
    hand: (v) => readPermissionResult(v) !== undefined,
  },
];

const REQUEST_BASES: Record<HostRequestSubtype, Obj> = {
  initialize: {
    subtype: 'initialize',
    systemPrompt: [''],
    hooks: null,
    sdkMcpServers: ['a'],
    disallowedTools: ['x'],
    timeout: { canUseTool: 1000 },
  },
  interrupt: { subtype: 'interrupt', cancel_queued: true },
  set_permission_mode: { subtype: 'set_permission_mode', mode: 'plan' },
  set_model: { subtype: 'set_model', model: 'm' },
  seed_read_state: {
    subtype: 'seed_read_state',
    files: [{ path: 'a', content: 'c', mtime: 1 }],
    path: 'b',
    mtime: 2,
  },
  mcp_status: { subtype: 'mcp_status' },
  mcp_server_status: { subtype: 'mcp_server_status' },
  supported_commands: { subtype: 'supported_commands' },
  get_context_usage: { subtype: 'get_context_usage', show_details: false },
  set_max_thinking_tokens: { subtype: 'set_max_thinking_tokens', max_thinking_tokens: 10 },
  set_effort: { subtype: 'set_effort', effort: 'low' },
  mcp_message: { subtype: 'mcp_message', server_name: 's', message: {} },
  get_available_models: { subtype: 'get_available_models' },
  stop_task: { subtype: 'stop_task', task_id: 't' },
  set_variable: { subtype: 'set_variable', name: 'max_turns', value: 3 },
  apply_flag_settings: { subtype: 'apply_flag_settings', settings: { model: 'm' } },
  mcp_set_servers: { subtype: 'mcp_set_servers', servers: { s: { type: 'sdk', name: 's' } } },
  mcp_toggle: { subtype: 'mcp_toggle', serverName: 's', enabled: false },
  mcp_reconnect: { subtype: 'mcp_reconnect', serverName: 's' },
};

describe('hand-written wire checks agree with the zod schemas', () => {
  it.each(BASES)('$name', ({ base, paths, zod, hand }) => {
    expect(zod(base)).toBe(true);
    expect(hand(base)).toBe(true);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...paths), values, fc.boolean()), { minLength: 1, maxLength: 3 }),
        (edits) => {
          let v = base;
          for (const [path, value, remove] of edits) v = mutate(v, path, value, remove);
          expect(hand(v)).toBe(zod(v));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('covers the same request subtypes', () => {
    expect([...HOST_REQUEST_SUBTYPES].sort()).toEqual(Object.keys(HOST_REQUEST_SCHEMAS).sort());
  });

  it.each(Object.entries(REQUEST_BASES))('request %s', (subtype, base) => {
    const schema = HOST_REQUEST_SCHEMAS[subtype as HostRequestSubtype];
    expect(schema.safeParse(base).success).toBe(true);
    const keys = [...new Set([...Object.keys(base).filter((k) => k !== 'subtype'), 'extra'])];
    const paths = keys
      .map((k) => [k])
      .concat(
        Array.isArray(base['files'])
          ? [
              ['files', '0', 'path'],
              ['files', '0', 'mtime'],
              ['files', '0', 'content'],
            ]
          : [],
      );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...paths), values, fc.boolean()), { minLength: 1, maxLength: 3 }),
        (edits) => {
          let v = base;
          for (const [path, value, remove] of edits) v = mutate(v, path, value, remove);
          expect(checkHostRequest(subtype, v) === undefined).toBe(schema.safeParse(v).success);
        },
      ),
      { numRuns: 300 },
    );
  });
});

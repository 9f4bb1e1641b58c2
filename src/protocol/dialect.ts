import { randomUUID } from 'node:crypto';
import type { Dialect } from './argv.js';

/**
 * Message shapes per SDK family. The two SDKs agree on envelopes but differ in field names and
 * payloads (docs/protocol.md §"Dialects"); everything that differs is built here and nowhere else.
 */

export const TWINLINE_PROTOCOL_VERSION = '2.1.332-twinline';

export interface SessionView {
  readonly dialect: Dialect;
  readonly sessionId: string;
  readonly cwd: string;
  readonly model: string;
  /** Mode name in the host's vocabulary. */
  readonly permissionMode: string;
  readonly tools: readonly string[];
  readonly version: string;
  /** The session's MCP servers and their state, for `system/init`. */
  readonly mcpServers?: readonly { readonly name: string; readonly status: string }[];
}

export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

function usageOf(u: Usage): Record<string, number> {
  return {
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

/** The success payload of `initialize`. */
export function initializeResponse(
  s: SessionView,
  applied: { disallowedTools: boolean; hooks?: boolean; problems?: readonly string[] },
): unknown {
  const problems = applied.problems?.length ? { initialize_problems: [...applied.problems] } : {};
  if (s.dialect === 'qwen') {
    return {
      subtype: 'initialize',
      session_id: s.sessionId,
      capabilities: {
        can_handle_can_use_tool: true,
        // the Qwen SDK answers no hook_callback, so none is sent to it
        can_handle_hook_callback: false,
        can_set_permission_mode: true,
        can_set_model: true,
        can_get_context_usage: true,
        can_handle_mcp_message: true,
      },
      ...problems,
    };
  }
  return {
    commands: [],
    agents: [],
    output_style: 'default',
    available_output_styles: ['default'],
    models: [{ value: s.model, displayName: s.model, description: 'Model configured for Twinline' }],
    account: { tokenSource: 'none', apiKeySource: 'none' },
    pid: process.pid,
    claude_code_version: s.version,
    current_permission_mode: s.permissionMode,
    ...(applied.disallowedTools ? { disallowed_tools_applied: true } : {}),
    mcp_servers_applied: false,
    // A failing or silent hook is always on the safe side here (see docs/protocol.md, "Hooks").
    ...(applied.hooks ? { hooks_applied: true, hook_on_failure_supported: true } : {}),
    ...problems,
  };
}

/** `system/init`, written at the start of every turn. */
export function systemInit(s: SessionView): Record<string, unknown> {
  const base = {
    type: 'system',
    subtype: 'init',
    uuid: s.dialect === 'qwen' ? s.sessionId : randomUUID(),
    session_id: s.sessionId,
    cwd: s.cwd,
    tools: s.tools,
    mcp_servers: s.mcpServers ?? [],
    model: s.model,
    slash_commands: [],
    agents: [],
  };
  if (s.dialect === 'qwen') {
    return { ...base, permission_mode: s.permissionMode, qwen_code_version: s.version };
  }
  return {
    ...base,
    permissionMode: s.permissionMode,
    apiKeySource: 'none',
    claude_code_version: s.version,
    output_style: 'default',
    skills: [],
    plugins: [],
  };
}

/** `system/status` after a mode change (Claude reports it; Qwen has no such message). */
export function systemStatus(s: SessionView): Record<string, unknown> | undefined {
  if (s.dialect === 'qwen') return undefined;
  return {
    type: 'system',
    subtype: 'status',
    status: null,
    permissionMode: s.permissionMode,
    uuid: randomUUID(),
    session_id: s.sessionId,
  };
}

/** A `system` message announcing a change the host made (run parameters, permissions, servers). */
export function systemNotice(
  s: SessionView,
  subtype: string,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  return {
    type: 'system',
    subtype,
    uuid: randomUUID(),
    session_id: s.sessionId,
    parent_tool_use_id: null,
    ...fields,
  };
}

/** A protocol error the host can see when no `request_id` could be read from the bad line. */
export function systemProtocolError(s: SessionView, code: string, message: string): Record<string, unknown> {
  return {
    type: 'system',
    subtype: 'protocol_error',
    uuid: randomUUID(),
    session_id: s.sessionId,
    parent_tool_use_id: null,
    error: { code, message },
  };
}

export type AssistantBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: unknown };

/** One completed assistant content block. */
export function assistantMessage(
  s: SessionView,
  messageId: string,
  block: AssistantBlock,
  usage: Usage,
): Record<string, unknown> {
  return {
    type: 'assistant',
    uuid: randomUUID(),
    session_id: s.sessionId,
    parent_tool_use_id: null,
    message: {
      id: messageId,
      type: 'message',
      role: 'assistant',
      model: s.model,
      content: [block],
      stop_reason: null,
      stop_sequence: null,
      usage: usageOf(usage),
    },
  };
}

/** A tool result fed back to the model, as the host sees it. */
export function toolResultMessage(
  s: SessionView,
  toolUseId: string,
  content: string,
  isError: boolean,
): Record<string, unknown> {
  return {
    type: 'user',
    uuid: randomUUID(),
    session_id: s.sessionId,
    parent_tool_use_id: null,
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: toolUseId, content, is_error: isError }],
    },
  };
}

/** Claude's marker after an interrupt (Qwen writes only the error result). */
export function interruptedMarker(s: SessionView): Record<string, unknown> | undefined {
  if (s.dialect === 'qwen') return undefined;
  return {
    type: 'user',
    uuid: randomUUID(),
    session_id: s.sessionId,
    parent_tool_use_id: null,
    message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] },
  };
}

/** A raw streaming event (`--include-partial-messages`). */
export function streamEvent(s: SessionView, event: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'stream_event',
    uuid: randomUUID(),
    session_id: s.sessionId,
    parent_tool_use_id: null,
    event,
  };
}

export interface PermissionDenial {
  readonly tool_name: string;
  readonly tool_use_id: string;
  readonly tool_input: unknown;
}

export type ResultSubtype = 'success' | 'error_during_execution' | 'error_max_turns';

export interface TurnSummary {
  readonly subtype: ResultSubtype;
  readonly text: string | undefined;
  /** Why a non-success turn ended. */
  readonly errors: readonly string[];
  readonly durationMs: number;
  readonly durationApiMs: number;
  readonly numTurns: number;
  readonly usage: Usage;
  readonly denials: readonly PermissionDenial[];
}

/**
 * The `result` ending a turn. Claude needs `errors: string[]` on error results (else its SDK
 * throws); Qwen reads `error: { message }`. Both need `uuid` and `session_id`.
 */
export function resultMessage(s: SessionView, t: TurnSummary): Record<string, unknown> {
  const isError = t.subtype !== 'success';
  const base: Record<string, unknown> = {
    type: 'result',
    subtype: t.subtype,
    uuid: randomUUID(),
    session_id: s.sessionId,
    is_error: isError,
    duration_ms: t.durationMs,
    duration_api_ms: t.durationApiMs,
    num_turns: t.numTurns,
    usage: usageOf(t.usage),
    permission_denials: t.denials,
  };
  if (!isError) base['result'] = t.text ?? '';
  if (s.dialect === 'qwen') {
    if (isError) base['error'] = { message: t.errors.join('; ') || 'error' };
    return base;
  }
  base['total_cost_usd'] = 0;
  base['modelUsage'] = {};
  base['stop_reason'] = isError ? null : 'end_turn';
  if (isError) base['errors'] = t.errors.length > 0 ? [...t.errors] : ['error'];
  return base;
}

/** Success payloads of host → engine requests whose shape differs per dialect. */
export const replies = {
  interrupt: (d: Dialect): unknown => (d === 'qwen' ? { subtype: 'interrupt' } : { still_queued: [] }),
  setPermissionMode: (d: Dialect, mode: string): unknown =>
    d === 'qwen' ? { status: 'updated', mode } : { mode },
  setModel: (d: Dialect, model: string): unknown =>
    d === 'qwen' ? { subtype: 'set_model', model } : { model },
  mcpStatus: (
    subtype: string,
    servers: readonly {
      name: string;
      status: string;
      tools: readonly string[];
      error?: string;
      source: string;
    }[],
  ): unknown =>
    subtype === 'mcp_server_status'
      ? { subtype, status: Object.fromEntries(servers.map((x) => [x.name, x.status])) }
      : {
          mcpServers: servers.map((x) => ({
            name: x.name,
            status: x.status,
            scope: x.source,
            tools: x.tools.map((name) => ({ name })),
            ...(x.error ? { error: x.error } : {}),
          })),
        },
  supportedCommands: (): unknown => ({ subtype: 'supported_commands', commands: [] }),
  contextUsage: (model: string, totalTokens: number): unknown => ({
    subtype: 'get_context_usage',
    modelName: model,
    totalTokens,
    contextWindowSize: 131072,
    isEstimated: true,
  }),
  availableModels: (model: string): unknown => ({ subtype: 'get_available_models', models: [model] }),
};

/** `permission_suggestions` of a `can_use_tool` request, in the host's vocabulary. */
export function permissionSuggestions(d: Dialect, toolName: string): unknown[] {
  if (d === 'qwen') {
    return [
      { type: 'allow', label: 'Allow', description: `Run ${toolName}` },
      { type: 'deny', label: 'Deny', description: `Block ${toolName}` },
    ];
  }
  return [{ type: 'addRules', rules: [{ toolName }], behavior: 'allow', destination: 'session' }];
}

import { z } from 'zod';

/**
 * Wire schemas of the stream-json control protocol spoken by the Claude Agent SDK and the Qwen
 * Code SDK (see docs/protocol.md). Objects are `loose`: both SDKs add fields over time and a
 * receiver must ignore what it does not know; only the fields we act on are constrained.
 */

const requestId = z.string().min(1).max(256);

// ---------------------------------------------------------------- envelopes

export const ControlRequestEnvelope = z.looseObject({
  type: z.literal('control_request'),
  request_id: requestId,
  request: z.looseObject({ subtype: z.string().min(1).max(128) }),
});
export type ControlRequestEnvelope = z.infer<typeof ControlRequestEnvelope>;

export const ControlSuccessResponse = z.looseObject({
  subtype: z.literal('success'),
  request_id: requestId,
  response: z.unknown().optional(),
});

export const ControlErrorResponse = z.looseObject({
  subtype: z.literal('error'),
  request_id: requestId,
  /** Claude sends a string; the Qwen SDK also accepts `{ message }`. */
  error: z.union([z.string(), z.looseObject({ message: z.string() })]),
  error_code: z.string().optional(),
});

export const ControlResponseEnvelope = z.looseObject({
  type: z.literal('control_response'),
  response: z.discriminatedUnion('subtype', [ControlSuccessResponse, ControlErrorResponse]),
});
export type ControlResponseEnvelope = z.infer<typeof ControlResponseEnvelope>;

export const ControlCancelEnvelope = z.looseObject({
  type: z.literal('control_cancel_request'),
  request_id: requestId,
});
export type ControlCancelEnvelope = z.infer<typeof ControlCancelEnvelope>;

// ---------------------------------------------------------------- host → engine requests

const jsonRecord = z.record(z.string(), z.unknown());

export const InitializeRequest = z.looseObject({
  subtype: z.literal('initialize'),
  systemPrompt: z.union([z.string(), z.array(z.string())]).optional(),
  appendSystemPrompt: z.string().optional(),
  hooks: z.union([jsonRecord, z.null()]).optional(),
  sdkMcpServers: z.union([z.array(z.string()), jsonRecord]).optional(),
  mcpServers: jsonRecord.optional(),
  agents: z.unknown().optional(),
  jsonSchema: z.unknown().optional(),
  disallowedTools: z.array(z.string()).optional(),
  settings: z.unknown().optional(),
  /** Qwen 0.1.14: `{ canUseTool: ms }`. */
  timeout: z.looseObject({ canUseTool: z.number().int().positive().optional() }).optional(),
});

export const InterruptRequest = z.looseObject({
  subtype: z.literal('interrupt'),
  cancel_queued: z.boolean().optional(),
});

export const SetPermissionModeRequest = z.looseObject({
  subtype: z.literal('set_permission_mode'),
  mode: z.string().min(1).max(64),
});

export const SetModelRequest = z.looseObject({
  subtype: z.literal('set_model'),
  model: z.string().max(512).nullable().optional(),
});

/** One file the host has already read, for the engine's read cache. */
export const SeededFile = z.object({
  path: z.string().min(1).max(4096),
  content: z
    .string()
    .max(8 * 1024 * 1024)
    .optional(),
  mtime: z.number().nonnegative().optional(),
});
export type SeededFile = z.infer<typeof SeededFile>;

/** Claude 0.3.x sends `{ path, mtime }`; Twinline's SDK sends `{ files: [...] }` with contents. */
export const SeedReadStateRequest = z.union([
  z.looseObject({
    subtype: z.literal('seed_read_state'),
    files: z.array(SeededFile).max(10_000),
  }),
  z.looseObject({
    subtype: z.literal('seed_read_state'),
    path: z.string().min(1).max(4096),
    mtime: z.number().nonnegative(),
  }),
]);

export const McpStatusRequest = z.looseObject({
  subtype: z.enum(['mcp_status', 'mcp_server_status']),
});
export const SupportedCommandsRequest = z.looseObject({ subtype: z.literal('supported_commands') });
export const ContextUsageRequest = z.looseObject({
  subtype: z.literal('get_context_usage'),
  show_details: z.boolean().optional(),
  detail: z.unknown().optional(),
});
export const SetMaxThinkingTokensRequest = z.looseObject({
  subtype: z.literal('set_max_thinking_tokens'),
  max_thinking_tokens: z.number().int().nonnegative().nullable().optional(),
});
export const SetEffortRequest = z.looseObject({ subtype: z.literal('set_effort'), effort: z.string() });
export const McpMessageFromHostRequest = z.looseObject({
  subtype: z.literal('mcp_message'),
  server_name: z.string(),
  message: z.unknown(),
});
export const AvailableModelsRequest = z.looseObject({ subtype: z.literal('get_available_models') });
export const StopTaskRequest = z.looseObject({ subtype: z.literal('stop_task'), task_id: z.string() });
/** A run parameter (docs/protocol.md, "Run parameters"); the value is checked per name. */
export const SetVariableRequest = z.looseObject({
  subtype: z.literal('set_variable'),
  name: z.string().min(1).max(64),
  value: z.unknown(),
});
export const ApplyFlagSettingsRequest = z.looseObject({
  subtype: z.literal('apply_flag_settings'),
  settings: jsonRecord,
});
export const McpSetServersRequest = z.looseObject({
  subtype: z.literal('mcp_set_servers'),
  servers: jsonRecord,
});
export const McpToggleRequest = z.looseObject({
  subtype: z.literal('mcp_toggle'),
  serverName: z.string().min(1).max(128),
  enabled: z.boolean(),
});
export const McpReconnectRequest = z.looseObject({
  subtype: z.literal('mcp_reconnect'),
  serverName: z.string().min(1).max(128),
});

/** Every host → engine request Twinline understands, keyed by subtype. */
export const HOST_REQUEST_SCHEMAS = {
  initialize: InitializeRequest,
  interrupt: InterruptRequest,
  set_permission_mode: SetPermissionModeRequest,
  set_model: SetModelRequest,
  seed_read_state: SeedReadStateRequest,
  mcp_status: McpStatusRequest,
  mcp_server_status: McpStatusRequest,
  supported_commands: SupportedCommandsRequest,
  get_context_usage: ContextUsageRequest,
  set_max_thinking_tokens: SetMaxThinkingTokensRequest,
  set_effort: SetEffortRequest,
  mcp_message: McpMessageFromHostRequest,
  get_available_models: AvailableModelsRequest,
  stop_task: StopTaskRequest,
  set_variable: SetVariableRequest,
  apply_flag_settings: ApplyFlagSettingsRequest,
  mcp_set_servers: McpSetServersRequest,
  mcp_toggle: McpToggleRequest,
  mcp_reconnect: McpReconnectRequest,
} as const;
export type HostRequestSubtype = keyof typeof HOST_REQUEST_SCHEMAS;
export type HostRequest = {
  [K in HostRequestSubtype]: z.infer<(typeof HOST_REQUEST_SCHEMAS)[K]>;
}[HostRequestSubtype];

// ---------------------------------------------------------------- engine → host requests

export const CanUseToolRequest = z.looseObject({
  subtype: z.literal('can_use_tool'),
  tool_name: z.string(),
  input: z.unknown(),
  tool_use_id: z.string(),
  permission_suggestions: z.array(z.unknown()).optional(),
  blocked_path: z.string().nullable().optional(),
  description: z.string().optional(),
  display_name: z.string().optional(),
  decision_reason: z.string().optional(),
});
export type CanUseToolRequest = z.infer<typeof CanUseToolRequest>;

export const HookCallbackRequest = z.looseObject({
  subtype: z.literal('hook_callback'),
  callback_id: z.string(),
  tool_use_id: z.string().optional(),
  input: z.unknown(),
});
export type HookCallbackRequest = z.infer<typeof HookCallbackRequest>;

export const McpMessageRequest = z.looseObject({
  subtype: z.literal('mcp_message'),
  server_name: z.string(),
  message: z.unknown(),
});
export type McpMessageRequest = z.infer<typeof McpMessageRequest>;

export type EngineRequest = CanUseToolRequest | HookCallbackRequest | McpMessageRequest;

/** The host's answer to `can_use_tool` (Claude adds `toolUseID`; Qwen always sends `updatedInput`). */
export const PermissionResult = z.union([
  z.looseObject({
    behavior: z.literal('allow'),
    updatedInput: z.unknown().optional(),
    updatedPermissions: z.array(z.unknown()).optional(),
    toolUseID: z.string().optional(),
  }),
  z.looseObject({
    behavior: z.literal('deny'),
    message: z.string().optional(),
    interrupt: z.boolean().optional(),
    toolUseID: z.string().optional(),
  }),
]);
export type PermissionResult = z.infer<typeof PermissionResult>;

// ---------------------------------------------------------------- data messages

const contentBlock = z.looseObject({ type: z.string() });

/** A user message from the host: a prompt (string or content blocks) or a tool result replay. */
export const UserMessage = z.looseObject({
  type: z.literal('user'),
  session_id: z.string().optional(),
  message: z.looseObject({
    role: z.literal('user'),
    content: z.union([z.string(), z.array(contentBlock)]),
  }),
  parent_tool_use_id: z.string().nullable().optional(),
  uuid: z.string().optional(),
});
export type UserMessage = z.infer<typeof UserMessage>;

export const SystemMessage = z.looseObject({
  type: z.literal('system'),
  subtype: z.string(),
  uuid: z.string(),
  session_id: z.string(),
});

export const AssistantMessage = z.looseObject({
  type: z.literal('assistant'),
  uuid: z.string(),
  session_id: z.string(),
  parent_tool_use_id: z.string().nullable(),
  message: z.looseObject({
    id: z.string(),
    role: z.literal('assistant'),
    content: z.array(contentBlock),
  }),
});

export const ResultMessage = z.looseObject({
  type: z.literal('result'),
  subtype: z.enum([
    'success',
    'error_during_execution',
    'error_max_turns',
    'error_max_budget_usd',
    'error_max_structured_output_retries',
  ]),
  is_error: z.boolean(),
  duration_ms: z.number(),
  num_turns: z.number(),
  uuid: z.string(),
  session_id: z.string(),
  result: z.string().optional(),
  errors: z.array(z.string()).optional(),
  error: z.looseObject({ message: z.string() }).optional(),
  permission_denials: z.array(z.unknown()),
});

export const StreamEventMessage = z.looseObject({
  type: z.literal('stream_event'),
  uuid: z.string(),
  session_id: z.string(),
  parent_tool_use_id: z.string().nullable(),
  event: z.looseObject({ type: z.string() }),
});

/** Any message the engine writes that is not a control envelope. */
export const EngineDataMessage = z.discriminatedUnion('type', [
  SystemMessage,
  AssistantMessage,
  UserMessage.extend({ uuid: z.string(), session_id: z.string() }),
  ResultMessage,
  StreamEventMessage,
]);
export type EngineDataMessage = z.infer<typeof EngineDataMessage>;

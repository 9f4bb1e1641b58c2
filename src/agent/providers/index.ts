export { type AnthropicMessagesOptions, AnthropicMessagesProvider } from './anthropic-messages.js';
export {
  createProvider,
  PROVIDER_PREFIXES,
  type ProviderConfig,
  type ProviderSpec,
  parseProviderSpec,
} from './create-provider.js';
export {
  DEFAULT_MODEL_SERVICE,
  type ModelServiceSettings,
  modelServiceSettings,
} from './model-service.js';
export { type OpenAICompatibleOptions, OpenAICompatibleProvider } from './openai-compatible.js';
export {
  DEFAULT_RETRY_POLICY,
  isRetryableStatus,
  type RetryPolicy,
  retryAfterMs,
  retryDelayMs,
} from './retry-policy.js';
export {
  type Script,
  ScriptedProvider,
  type ScriptedTurn,
  scriptedTurnSchema,
  scriptSchema,
} from './scripted.js';
export {
  type AssistantMessage,
  completeTurn,
  type ModelDelta,
  type ModelMessage,
  type ModelProvider,
  type ModelTurnRequest,
  type ProposedToolCall,
  type TokenUsage,
  type ToolDeclaration,
} from './types.js';

/**
 * The access layer: which tools each agent may see and call, and whether a call runs, asks or is
 * refused — decided outside the model from definitions, settings and trust. Pure decision
 * functions; the loaders (`*-loader.ts`) are the only I/O.
 */

export {
  type EngineStatePath,
  type EngineStateRoots,
  engineStatePaths,
  isEngineStatePath,
  matchEngineState,
} from '../tools/index.js';
export { type AccessContext, type BuildAccessContextInput, buildAccessContext } from './access-context.js';
export {
  ACCESS_STAGE,
  type AccessStageOptions,
  checkAccess,
  createAccessStage,
  type ToolResolver,
} from './access-stage.js';
export {
  ACCESS_EXTENSION_KEY,
  type AccessState,
  accessStateOf,
  type CallRoute,
  DIRECT_ONLY_TOOLS,
  execCallableTools,
  withCallRoute,
} from './access-state.js';
export { type AgentCheck, type AgentCheckOptions, prepareAgentCheck } from './agent-check-loader.js';
export {
  APPROVAL_STAGE,
  type ApprovalInput,
  type ApprovalStageOptions,
  approvalFor,
  createApprovalStage,
  decideApproval,
  isSafeEditTarget,
} from './approval.js';
export {
  APPROVAL_MODES,
  type ApprovalMode,
  isApprovalMode,
  isModeWithin,
  MODE_RANK,
  PERMISSION_MODE_ALIASES,
  PRIVILEGED_MODES,
  parseApprovalMode,
} from './approval-mode.js';
export { MODE_TABLE, type ModeCell } from './approval-table.js';
export { type BubbleOptions, bubbleApprover } from './bubble.js';
export { compileCommandPattern } from './command-pattern.js';
export { filterDeclarations, filterToolSearch } from './declarations.js';
export {
  type AgentDefinition,
  agentNameProblem,
  type DefinitionSource,
  defineAgent,
  parseAgentDefinition,
  RESERVED_AGENT_NAMES,
  splitToolList,
} from './definition.js';
export { AgentDefinitionError } from './definition-error.js';
export {
  type LoadAgentDefinitionsOptions,
  type LoadedAgentDefinitions,
  loadAgentDefinitions,
} from './definition-loader.js';
export {
  ENGINE_STATE_RULE_ID,
  engineStateDenial,
  engineStateOf,
  shellNamesEngineState,
} from './engine-state-guard.js';
export {
  type AccessEnvironment,
  type AccessEnvironmentOptions,
  loadAccessEnvironment,
} from './environment-loader.js';
export { assertInteractiveCaller, InteractiveToolError } from './interactive.js';
export { LiveRuleSet } from './live-rule-set.js';
export { compilePathPattern, type PathRoots, resolvePath, targetPathOf } from './path-pattern.js';
export {
  type PermissionDestination,
  type PermissionUpdate,
  type PermissionUpdateContext,
  type PersistedLevel,
  type PlannedUpdate,
  planPermissionUpdate,
} from './permission-updates.js';
export {
  MAX_RULE_LENGTH,
  PATH_RULE_COVERAGE,
  type ParsedRule,
  parseRule,
  type RuleEffect,
  type RuleParseResult,
  type SpecifierKind,
} from './rule-parser.js';
export {
  type CompiledRule,
  type CompiledRuleSet,
  compileRuleSet,
  evaluateRules,
  extendRuleSet,
  type RuleEvaluation,
  type RuleSource,
  type RuleWarning,
  type ToolRules,
} from './rule-set.js';
export {
  type NetworkAllowance,
  networkAllowanceOf,
  type ShellSandboxInput,
  withShellSandbox,
} from './sandbox-grant.js';
export {
  type AccessSettingsFile,
  type EffectiveAccessSettings,
  mergeAccessSettings,
  type SettingsLayer,
  type SettingsLevel,
} from './settings.js';
export { loadSettingsLayers, type SettingsPaths, settingsPaths } from './settings-loader.js';
export { writeSettingsMode, writeSettingsRules } from './settings-writer.js';
export { isDestructiveShell, isReadOnlyShell } from './shell-risk.js';
export { type ShellSegment, type SplitShellCommand, splitShellCommand } from './shell-split.js';
export { clampRequestedMode, resolveSubagentMode, type SubagentModePolicy } from './subagent-mode.js';
export {
  BUILTIN_TOOL_KINDS,
  BUILTIN_TOOL_NAMES,
  canonicalToolName,
  isMcpToolName,
  TOOL_NAME_ALIASES,
  toolKindOf,
} from './tool-names.js';
export { compileToolPattern, matchesToolPattern, type ToolNameMatcher } from './tool-pattern.js';
export {
  type AgentPosition,
  BACKGROUND_ALLOWLIST,
  DEFAULT_MAX_AGENT_DEPTH,
  GLOBAL_DENY_FOR_SPAWNED,
  MAX_AGENT_DEPTH_LIMIT,
  type ResolveAgentToolsInput,
  type ResolvedAgentTools,
  resolveAgentTools,
  TEAMMATE_EXTENSION,
  type ToolRemovalReason,
} from './tool-set.js';
export {
  assertModeAllowed,
  type FolderTrustView,
  gateApprovalMode,
  type ModeRequest,
  resolveStartMode,
  TrustGateError,
  UnknownModeError,
} from './trust-gate.js';
export {
  type FolderTrust,
  isTrusted,
  resolveFolderTrust,
  TRUST_VALUES,
  type TrustDecision,
  type TrustValue,
} from './trusted-folders.js';
export { loadFolderTrust, loadTrustedFolders, trustedFoldersPath } from './trusted-folders-loader.js';

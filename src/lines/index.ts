export {
  type LineSummary,
  RecentSummaries,
  type RecentSummariesOptions,
} from './context/recent-summaries.js';
export { composeReport } from './deep/answer-composer.js';
export { DeepLine, type DeepLineDeps, type DeepRunOptions } from './deep/deep-line.js';
export {
  type Plan,
  PlanFormatError,
  type PlanStep,
  parsePlan,
  parseRevision,
  planSchema,
  revisionSchema,
} from './deep/plan.js';
export {
  composerMessages,
  DEFAULT_COMPOSER_PROMPT,
  DEFAULT_PLANNER_ROLE,
  type DeepPrompts,
  ModelPlanner,
  type PlannerPort,
  type PlannerTurn,
  type PlanProgress,
  plannerMessages,
} from './deep/planner.js';
export {
  renderRelevantSummaries,
  type SummaryEntry,
  selectRelevantSummaries,
} from './deep/relevant-summaries.js';
export { renderSummary, type StepSummary, summariseStep } from './deep/step-summary.js';
export type { DeepRunResult } from './deep/task-run.js';
export { readTaskState, storedTaskState, TASK_STATE, type TaskState } from './deep/task-state.js';
export {
  type DispatcherDeps,
  type InputVerdict,
  LineDispatcher,
  type RequestOptions,
  type RequestResult,
  type RouteDecision,
} from './dispatcher.js';
export {
  type GatedLineEvent,
  type GatedRequestResult,
  gateRequestResult,
  LINE_EVENT_EGRESS,
  LineEventEgress,
} from './event-egress.js';
export {
  type LineEvent,
  type LineEventSink,
  REQUEST_OUTCOMES,
  type RequestOutcome,
  type RouteTarget,
} from './events.js';
export {
  assertDisjointAllowlists,
  resolveLineAllowlist,
  resolveLineAllowlists,
} from './line-allowlists.js';
export { outcomeOf } from './outcome.js';
export { DEFAULT_CACHE_TTL_MS, withQuickCache } from './quick/cached-tools.js';
export {
  DEFAULT_QUICK_PROMPT,
  type ModelFailureInfo,
  QuickLine,
  type QuickLineDeps,
  type QuickRunResult,
  quickSystemPrompt,
} from './quick/quick-line.js';
export { RedisCacheBackend } from './quick/redis-cache-backend.js';
export { type CacheBackend, MemoryCacheBackend, QuickResultCache } from './quick/result-cache.js';
export { assertStrictQuickTools } from './quick/strict-allowlist.js';
export { findLooseArguments, type LooseArgument } from './quick/strict-schema.js';
export { createWriteFactStage, writeFact } from './quick/write-fact-stage.js';
export {
  assertRetrievalTool,
  type ReadonlyAnswer,
  ReadonlyLine,
  type ReadonlyLineDeps,
} from './readonly/readonly-line.js';
export { retrievalTerms } from './readonly/retrieval-terms.js';

import type { Identity } from '../core/index.js';
import type { ThirdPartyTextLedger } from '../gateway/index.js';
import type { AgentFrame } from './agent-frame.js';
import type { BackgroundJobs } from './background-jobs.js';
import type { AgentEventBus } from './events.js';
import type { ResourceTracker } from './resource-tracker.js';
import type {
  AgentAccess,
  AgentHooks,
  SubagentDefinition,
  ToolCatalog,
  ToolInvoker,
  UserQuestionHandler,
} from './runtime-ports.js';
import type { TaskBoard } from './task-board.js';

/** Limits and timeouts of a session's agent tree. */
export interface RuntimeLimits {
  /** Model turns per run of one agent. */
  readonly maxTurns: number;
  /** Deepest nesting a sub-agent may have (the main agent is depth 0). */
  readonly maxDepth: number;
  /** How long a bubbled background approval waits before it is denied. */
  readonly backgroundApprovalTimeoutMs: number;
  /** Tokens (input + output) one run may spend; unlimited when absent. */
  readonly maxTokens?: number;
  /** Wall time of one run; unlimited when absent. */
  readonly maxWallMs?: number;
  /** Dollars one run may spend (providers that report cost); unlimited when absent. */
  readonly maxCostUsd?: number;
}

export const DEFAULT_LIMITS: RuntimeLimits = {
  maxTurns: 25,
  maxDepth: 3,
  backgroundApprovalTimeoutMs: 30_000,
};

/**
 * State shared by every agent of one session: who is calling, the gateway and catalog, the
 * access layer, the event bus, the shared task board, the live frames, and the tracker that
 * proves cancellation complete.
 */
export interface SessionRuntime {
  readonly sessionId: string;
  readonly identity: Identity;
  readonly cwd: string | undefined;
  readonly domain: string;
  readonly gateway: ToolInvoker;
  readonly catalog: ToolCatalog;
  readonly access: AgentAccess;
  readonly definitions: ReadonlyMap<string, SubagentDefinition>;
  readonly bus: AgentEventBus;
  readonly tracker: ResourceTracker;
  readonly board: TaskBoard;
  readonly jobs: BackgroundJobs;
  /** Replaced whole by `AgentSession.setLimits`; a run reads it when it starts. */
  limits: RuntimeLimits;
  /** The host's hooks on the agents' lifecycle (a host session); absent → none. */
  readonly hooks: AgentHooks | undefined;
  readonly trustedFolder: boolean;
  readonly thirdPartyText: ThirdPartyTextLedger | undefined;
  /** High-risk capabilities the user's prompts declared so far (grows per run, never from the model). */
  declaredCapabilities: readonly string[] | undefined;
  /** Live agent frames by id. */
  readonly frames: Map<string, AgentFrame>;
  userQuestion: UserQuestionHandler | undefined;
  /** Counter for child ids. */
  nextChild: number;
}

import type { Identity } from '../core/index.js';
import type { Approver, ThirdPartyTextLedger } from '../gateway/index.js';
import type { AgentFrameRef } from '../tools/index.js';
import { type LinkedController, linkedController } from './abort.js';
import type { BackgroundJobs } from './background-jobs.js';
import type { AgentEventBus, SubagentRunMode } from './events.js';
import type { ModelMessage, ModelProvider } from './providers/index.js';
import type { ResourceTracker } from './resource-tracker.js';
import type { RuntimeLimits } from './runtime-limits.js';
import type {
  AccessFrame,
  AccessGrant,
  AgentAccess,
  AgentHooks,
  SubagentDefinition,
  ToolCatalog,
  ToolInvoker,
  UserQuestionHandler,
} from './runtime-ports.js';
import type { TaskBoard } from './task-board.js';

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
  readonly jobs: BackgroundJobs<AgentFrame>;
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

export interface TodoItem {
  readonly content: string;
  readonly status: 'pending' | 'in_progress' | 'completed';
}

/** A message waiting for an agent's next turn. */
export interface InboxMessage {
  readonly from: string;
  readonly text: string;
}

export interface AgentFrameInit {
  readonly runtime: SessionRuntime;
  readonly id: string;
  readonly name: string;
  readonly depth: number;
  readonly mode: SubagentRunMode | 'main';
  readonly parent?: AgentFrame;
  readonly definition?: SubagentDefinition;
  readonly grant: AccessGrant;
  readonly approvalMode: string;
  readonly approver: Approver | undefined;
  readonly provider: ModelProvider;
  readonly systemPrompt: string;
  readonly maxTurns: number;
  /** Signals whose abort cancels this agent (the parent's lifetime, a foreground call). */
  readonly cancelledBy: readonly (AbortSignal | undefined)[];
  /** Conversation to continue (the main agent keeps one across runs). */
  readonly history?: ModelMessage[];
  /** Inbox to share (the main agent keeps one across runs). */
  readonly inbox?: InboxMessage[];
}

/**
 * One running agent: its identity in the tree, the tools and mode the access layer gave it, its
 * conversation, and the controller whose abort stops it and every agent below it.
 */
export class AgentFrame {
  readonly runtime: SessionRuntime;
  readonly id: string;
  readonly name: string;
  readonly depth: number;
  readonly mode: SubagentRunMode | 'main';
  readonly parent: AgentFrame | undefined;
  readonly definition: SubagentDefinition | undefined;
  readonly grant: AccessGrant;
  approvalMode: string;
  /** Mode to return to on exit_plan_mode. */
  modeBeforePlan: string | undefined;
  approver: Approver | undefined;
  provider: ModelProvider;
  readonly systemPrompt: string;
  readonly maxTurns: number;
  readonly history: ModelMessage[];
  readonly inbox: InboxMessage[];
  todos: readonly TodoItem[] = [];
  readonly #life: LinkedController;

  constructor(init: AgentFrameInit) {
    this.runtime = init.runtime;
    this.id = init.id;
    this.name = init.name;
    this.depth = init.depth;
    this.mode = init.mode;
    this.parent = init.parent;
    this.definition = init.definition;
    this.grant = init.grant;
    this.approvalMode = init.approvalMode;
    this.approver = init.approver;
    this.provider = init.provider;
    this.systemPrompt = init.systemPrompt;
    this.maxTurns = init.maxTurns;
    this.history = init.history ?? [];
    this.inbox = init.inbox ?? [];
    this.#life = linkedController(...init.cancelledBy);
  }

  get background(): boolean {
    return this.mode === 'background' || this.mode === 'teammate';
  }

  get teammate(): boolean {
    return this.mode === 'teammate';
  }

  /** Aborted when this agent is stopped or any ancestor is cancelled. */
  get signal(): AbortSignal {
    return this.#life.signal;
  }

  /** Stops this agent and, through the linked signals, every agent it spawned. */
  cancel(reason = 'cancelled'): void {
    this.#life.abort(reason);
  }

  /** Unhooks from the parent's signal once the agent has finished. */
  dispose(): void {
    this.#life.dispose();
    this.runtime.frames.delete(this.id);
  }

  ref(): AgentFrameRef {
    return { name: this.name, depth: this.depth, background: this.background, teammate: this.teammate };
  }

  /** Tools this agent may see and call. */
  get tools(): ReadonlySet<string> {
    return this.grant.tools;
  }

  accessFrame(): AccessFrame {
    return {
      ref: this.ref(),
      ...(this.parent ? { parent: this.parent.grant } : {}),
      ...(this.definition ? { definition: this.definition } : {}),
    };
  }

  /** The main agent of the tree (the coordinator). */
  root(): AgentFrame {
    let f: AgentFrame = this;
    while (f.parent) f = f.parent;
    return f;
  }
}

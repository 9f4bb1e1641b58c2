import { randomUUID } from 'node:crypto';
import { assertModeAllowed, parseApprovalMode } from '../access/index.js';
import { type Identity, TwinlineError } from '../core/index.js';
import type { Approver, ThirdPartyTextLedger } from '../gateway/index.js';
import { AgentFrame, type InboxMessage, type SessionRuntime } from './agent-frame.js';
import { BackgroundJobs } from './background-jobs.js';
import { type AgentEvent, AgentEventBus, type AgentEventListener } from './events.js';
import { runAgentLoop } from './loop.js';
import { narrowedAccess } from './narrowed-access.js';
import { createProvider, type ModelMessage, type ModelProvider } from './providers/index.js';
import { ResourceTracker } from './resource-tracker.js';
import type { RunBudget } from './run-budget.js';
import type { RunResult } from './run-result.js';
import { DEFAULT_LIMITS, type RuntimeLimits } from './runtime-limits.js';
import type {
  AccessGrant,
  AgentAccess,
  AgentHooks,
  SubagentDefinition,
  ToolCatalog,
  ToolInvoker,
  UserQuestionHandler,
} from './runtime-ports.js';
import { hostHookText } from './runtime-ports.js';
import { TaskBoard } from './task-board.js';

export interface AgentSessionOptions {
  /** Who is calling, from trusted ingress. */
  readonly identity: Identity;
  readonly provider: ModelProvider;
  readonly gateway: ToolInvoker;
  readonly catalog: ToolCatalog;
  readonly access: AgentAccess;
  readonly sessionId?: string;
  readonly cwd?: string;
  readonly approvalMode?: string;
  /** Answers `ask` verdicts of the main agent (the host, via the control protocol). */
  readonly approver?: Approver;
  readonly userQuestion?: UserQuestionHandler;
  readonly systemPrompt?: string;
  readonly definitions?: Iterable<SubagentDefinition>;
  readonly limits?: Partial<RuntimeLimits>;
  /** Audit domain of the calls (`main`, `cli`, `deep`, …). */
  readonly domain?: string;
  /** Whether the working folder is trusted (decides privileged sub-agent modes). */
  readonly trustedFolder?: boolean;
  readonly thirdPartyText?: ThirdPartyTextLedger;
  readonly declaredCapabilities?: readonly string[];
  /**
   * The high-risk capabilities a prompt of the user declares (the intent slot). Called on each
   * run with that run's prompt; a session's declarations accumulate over its runs. The model's
   * own words never reach it.
   */
  readonly declareIntent?: (prompt: string) => readonly string[];
  /** The host's hooks on the agents' lifecycle (a host session). */
  readonly hooks?: AgentHooks;
  /** A conversation to continue (a session loaded from its transcript). */
  readonly history?: readonly ModelMessage[];
}

function gateSessionMode(mode: string, trusted: boolean, cwd: string | undefined, source: string): void {
  const parsed = parseApprovalMode(mode);
  if (parsed) assertModeAllowed(parsed, trusted, cwd ?? '(no working folder)', { name: mode, source });
}

/** A session is single-threaded: one run at a time. */
export class SessionBusyError extends TwinlineError {
  constructor(sessionId: string) {
    super('agent.session_busy', 'a run is already in progress; interrupt it or wait', {
      where: `session ${sessionId}`,
    });
  }
}

/** How a run is started. */
export interface RunOptions {
  /** Keep a buffered stream of the run's events for iterating the handle (default true). */
  readonly stream?: boolean;
  /**
   * Text the host adds to the prompt (a UserPromptSubmit hook's context): the model reads it as
   * the host's quoted words after the prompt; the intent slot reads only the prompt itself.
   */
  readonly context?: string;
}

/** A run's budget as the loop reads it on every turn: `setLimits` changes the running one too. */
type LiveBudget = { -readonly [K in keyof RunBudget]: RunBudget[K] };

/** One run in flight: iterate its events, await its result, or interrupt it. */
export interface RunHandle extends AsyncIterable<AgentEvent> {
  readonly result: Promise<RunResult>;
  interrupt(): void;
}

const DEFAULT_SYSTEM_PROMPT =
  'You are a careful assistant. Use the tools you are given to act; a tool may refuse, and a refusal is final.';

/**
 * A conversation with the main agent on behalf of one identity. Everything the agents of the
 * session do goes through the gateway with context built here; sub-agents it spawns share its
 * event bus, task board and tracker. The session survives interrupts: the next `run` continues
 * the same conversation.
 */
export class AgentSession {
  readonly sessionId: string;
  readonly identity: Identity;
  readonly events: AgentEventBus;
  readonly tracker: ResourceTracker;
  readonly #rt: SessionRuntime;
  readonly #opts: AgentSessionOptions;
  // Closing cancels the running frame and every frame still registered (see `close`), so no
  // controller per session is needed to carry it.
  #closed = false;
  readonly #history: ModelMessage[] = [];
  readonly #inbox: InboxMessage[] = [];
  #provider: ModelProvider;
  #approvalMode: string;
  #current: AgentFrame | undefined;
  #grant: AccessGrant | undefined;
  #running = false;
  #budget: LiveBudget | undefined;
  #toolFilter: ((tool: string) => boolean) | undefined;

  constructor(options: AgentSessionOptions) {
    this.#opts = options;
    this.sessionId = options.sessionId ?? randomUUID();
    this.identity = options.identity;
    this.events = new AgentEventBus();
    this.tracker = new ResourceTracker();
    this.#provider = options.provider;
    if (options.history) this.#history.push(...options.history);
    this.#approvalMode = options.approvalMode ?? 'default';
    // The trust gate holds however a session is built: a privileged mode needs a trusted folder.
    gateSessionMode(
      this.#approvalMode,
      options.trustedFolder === true,
      options.cwd,
      'AgentSession approvalMode',
    );
    this.#rt = {
      sessionId: this.sessionId,
      identity: options.identity,
      cwd: options.cwd,
      domain: options.domain ?? 'main',
      gateway: options.gateway,
      catalog: options.catalog,
      // Every grant and every call's access state passes the session's tool filter (`restrictTools`).
      access: narrowedAccess(options.access, () => this.#toolFilter),
      definitions: new Map(
        options.definitions ? [...options.definitions].map((d) => [d.name, d]) : undefined,
      ),
      bus: this.events,
      tracker: this.tracker,
      board: new TaskBoard(),
      jobs: new BackgroundJobs(),
      limits: { ...DEFAULT_LIMITS, ...options.limits },
      hooks: options.hooks,
      trustedFolder: options.trustedFolder ?? false,
      thirdPartyText: options.thirdPartyText,
      declaredCapabilities: options.declaredCapabilities,
      frames: new Map(),
      userQuestion: options.userQuestion,
      nextChild: 0,
    };
  }

  get approvalMode(): string {
    return this.#current?.approvalMode ?? this.#approvalMode;
  }

  get model(): string {
    return `${this.#provider.kind}:${this.#provider.model}`;
  }

  /** The team's shared task list (coordinator and teammates). */
  get board(): TaskBoard {
    return this.#rt.board;
  }

  /** Tools the main agent may see and call, as the access layer resolved them. */
  get tools(): ReadonlySet<string> {
    return this.#mainGrant().tools;
  }

  /**
   * The tools the access layer grants the main agent before any host narrowing (`restrictTools`):
   * the ceiling a host's tool list must stay within.
   */
  grantedTools(): ReadonlySet<string> {
    return this.#opts.access.grant(
      {
        ref: { name: 'main', depth: 0, background: false, teammate: false },
        requestedMode: this.#approvalMode,
      },
      this.#rt.catalog.list(),
      this.#rt.trustedFolder,
    ).tools;
  }

  /** The model provider reports cost (a cost budget can be enforced). */
  get reportsCost(): boolean {
    return this.#provider.reportsCost === true;
  }

  /** Stops a running background agent by its task id; false when none is running under that id. */
  stopTask(taskId: string): boolean {
    const job = this.#rt.jobs.get(taskId);
    if (!job || job.result !== undefined) return false;
    job.frame.cancel('stopped by the host');
    return true;
  }

  #mainGrant(): AccessGrant {
    this.#grant ??= this.#rt.access.grant(
      {
        ref: { name: 'main', depth: 0, background: false, teammate: false },
        requestedMode: this.#approvalMode,
      },
      this.#rt.catalog.list(),
      this.#rt.trustedFolder,
    );
    return this.#grant;
  }

  /** Switches the model for the next turn (a provider, or a spec such as `scripted:PATH`). */
  setModel(model: ModelProvider | string): void {
    this.#provider = typeof model === 'string' ? createProvider(model) : model;
    if (this.#current) this.#current.provider = this.#provider;
  }

  /**
   * Changes the main agent's approval mode; applies from the next call. Throws `TrustGateError`
   * for a privileged mode when the folder is not trusted (the mode is left as it was).
   */
  setApprovalMode(mode: string): void {
    gateSessionMode(mode, this.#rt.trustedFolder, this.#rt.cwd, 'setApprovalMode');
    this.#approvalMode = mode;
    if (this.#current) this.#current.approvalMode = mode;
  }

  /** The conversation so far, as the model reads it (a copy). */
  get history(): readonly ModelMessage[] {
    return [...this.#history];
  }

  /** The limits runs start with (turns, tokens, wall time, cost). */
  get limits(): RuntimeLimits {
    return this.#rt.limits;
  }

  /**
   * Changes the run limits; the running main agent's turn, token and cost budget changes too (it
   * is read on every turn), sub-agents started from now on get the new ones.
   */
  setLimits(limits: Partial<Pick<RuntimeLimits, 'maxTurns' | 'maxTokens' | 'maxCostUsd'>>): void {
    const next: RuntimeLimits = { ...this.#rt.limits, ...limits };
    this.#rt.limits = next;
    const b = this.#budget;
    if (!b) return;
    b.maxTurns = next.maxTurns;
    if (next.maxTokens === undefined) delete b.maxTokens;
    else b.maxTokens = next.maxTokens;
    if (next.maxCostUsd === undefined) delete b.maxCostUsd;
    else b.maxCostUsd = next.maxCostUsd;
  }

  /**
   * Narrows the tools every agent of the session may see and call to those `filter` keeps
   * (undefined: no narrowing). It only ever removes: what the access layer granted (definitions,
   * rules, trust, mode) stays the ceiling. Calls already refused by it are refused at once; the
   * tool list the model reads changes from the next run.
   */
  restrictTools(filter: ((tool: string) => boolean) | undefined): void {
    this.#toolFilter = filter;
    this.#grant = undefined;
  }

  setUserQuestionHandler(handler: UserQuestionHandler | undefined): void {
    this.#rt.userQuestion = handler;
  }

  /** Interrupts the current run: the model request, the running tools and every agent it spawned. */
  interrupt(): void {
    this.#current?.cancel('interrupted');
  }

  /**
   * Starts a run. Iterate the handle for its events; await `result` for the outcome. With
   * `{ stream: false }` the handle keeps no buffered copy of the events and cannot be iterated:
   * for callers that only await `result` and listen with `on` (the quick line, per request).
   */
  run(prompt: string, options: RunOptions = {}): RunHandle {
    // One run at a time, even while an interrupted run is still winding down: they share history.
    if (this.#running) throw new SessionBusyError(this.sessionId);
    if (this.#closed) {
      throw new TwinlineError('agent.session_closed', 'the session is closed', {
        where: `session ${this.sessionId}`,
      });
    }
    // Re-resolve per run: tools registered since the last run become visible, removed ones vanish.
    this.#grant = undefined;
    const declared = this.#opts.declareIntent?.(prompt);
    if (declared && declared.length > 0) {
      this.#rt.declaredCapabilities = [...new Set([...(this.#rt.declaredCapabilities ?? []), ...declared])];
    } else if (this.#opts.declareIntent && !this.#rt.declaredCapabilities) {
      this.#rt.declaredCapabilities = [];
    }
    const stream = options.stream === false ? undefined : this.events.subscribe();
    const frame = new AgentFrame({
      runtime: this.#rt,
      id: 'main',
      name: 'main',
      depth: 0,
      mode: 'main',
      grant: this.#mainGrant(),
      approvalMode: this.#approvalMode,
      approver: this.#opts.approver,
      provider: this.#provider,
      systemPrompt: this.#opts.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
      maxTurns: this.#rt.limits.maxTurns,
      cancelledBy: [],
      history: this.#history,
      inbox: this.#inbox,
    });
    this.#current = frame;
    this.#rt.frames.set(frame.id, frame);
    this.#running = true;
    const limits = this.#rt.limits;
    const budget: LiveBudget = {
      maxTurns: limits.maxTurns,
      ...(limits.maxTokens === undefined ? {} : { maxTokens: limits.maxTokens }),
      ...(limits.maxWallMs === undefined ? {} : { maxWallMs: limits.maxWallMs }),
      ...(limits.maxCostUsd === undefined ? {} : { maxCostUsd: limits.maxCostUsd }),
    };
    this.#budget = budget;
    const modelPrompt =
      options.context === undefined
        ? prompt
        : `${prompt}\n\n${hostHookText("context from the host's UserPromptSubmit hook", options.context)}`;
    const result = this.tracker.track(
      'main run',
      runAgentLoop(frame, modelPrompt, { signal: frame.signal, budget }).finally(() => {
        this.#running = false;
        this.#budget = undefined;
        // Unhook from the session signal; background children stay reachable through `frames`.
        frame.dispose();
        // Keep the mode the run ended in (plan mode entered by the model persists).
        this.#approvalMode = frame.approvalMode;
        if (stream) queueMicrotask(() => stream.close());
      }),
    );
    return {
      result,
      interrupt: () => frame.cancel('interrupted'),
      [Symbol.asyncIterator]: () => {
        if (!stream) {
          throw new TwinlineError('agent.run_not_streamed', 'this run was started without an event stream', {
            where: `session ${this.sessionId}`,
          });
        }
        return stream[Symbol.asyncIterator]();
      },
    };
  }

  /** Adds a listener for every event of the session, sub-agents included. */
  on(listener: AgentEventListener): () => void {
    return this.events.on(listener);
  }

  /** Resolves when no run, background agent, timer or bubbled approval is outstanding. */
  idle(): Promise<void> {
    return this.tracker.idle();
  }

  /** Cancels everything the session started and waits until it has all stopped. */
  async close(): Promise<void> {
    this.#closed = true;
    // A finished main run has nothing left to stop (its background children are still in
    // `frames`): aborting its signal would only dispatch an event nobody listens to.
    if (this.#running) this.#current?.cancel('session closed');
    for (const f of this.#rt.frames.values()) f.cancel('session closed');
    await this.tracker.idle();
  }
}

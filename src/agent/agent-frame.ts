import type { Approver } from '../gateway/index.js';
import type { AgentFrameRef } from '../tools/index.js';
import { type LinkedController, linkedController } from './abort.js';
import type { SubagentRunMode } from './events.js';
import type { ModelMessage, ModelProvider } from './providers/index.js';
import type { AccessFrame, AccessGrant, SubagentDefinition } from './runtime-ports.js';
import type { SessionRuntime } from './session-runtime.js';

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

import type { AgentEvent } from '../agent/events.js';
import type { EgressGate } from '../gates/index.js';
import type { Approver } from '../gateway/index.js';
import type { HostApprovalMode } from './permission-modes.js';
import type { SeededFile } from './schemas.js';

/** What one turn is given by the engine. */
export interface RuntimeTurn {
  readonly prompt: string;
  readonly signal: AbortSignal;
  /** Answers `ask` verdicts (the host, or a deny-all when the host cannot be asked). */
  readonly approver: Approver;
  readonly approvalMode: HostApprovalMode;
  readonly maxTurns: number | undefined;
}

/**
 * The agent runtime as the stream-json engine uses it: a session that runs turns as typed event
 * streams. Created lazily (off the critical path of `initialize`); the adapter over `AgentSession`
 * lives in `agent-runtime.ts`.
 */
export interface EngineRuntime {
  /** Tool names the main agent may see, for `system/init`. */
  toolNames(): readonly string[];
  /** The model in use (after `setModel`). */
  model(): string;
  /**
   * Runs one turn, calling `emit` synchronously as events happen (so a `tool_proposed` is written
   * before the `can_use_tool` it leads to). Emits exactly one depth-0 `result`; resolves after it.
   */
  run(turn: RuntimeTurn, emit: (event: AgentEvent) => void): Promise<void>;
  /** Applies a mode change to the running turn too (the next call sees it). */
  setApprovalMode(mode: HostApprovalMode): void;
  /** Switches the model for the next model request; returns the model now in use. */
  setModel(model: string | undefined): Promise<string>;
  /** Pre-loads files the host already read. */
  seedReadState(files: readonly SeededFile[]): void;
  /**
   * The egress gate of this session: everything the engine writes to the host that carries model
   * or tool text passes it, for the session's identity (docs/gates.md, "Gated doors").
   */
  output(): EgressGate;
  close(): Promise<void>;
}

/** Builds the runtime for a session. */
export type EngineRuntimeFactory = (config: RuntimeConfig) => Promise<EngineRuntime>;

export interface RuntimeConfig {
  readonly cwd: string;
  readonly sessionId: string;
  readonly model: string | undefined;
  readonly allowedTools: readonly string[];
  readonly disallowedTools: readonly string[];
  readonly systemPrompt: string | undefined;
  readonly appendSystemPrompt: string | undefined;
  readonly maxTurns: number | undefined;
  readonly approvalMode: HostApprovalMode;
  readonly env: NodeJS.ProcessEnv;
  /** Operator-facing messages (stderr in the CLI), e.g. the one warning that no sandbox exists. */
  readonly log?: (message: string) => void;
}

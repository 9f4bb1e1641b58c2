import type { AgentEvent } from '../agent/events.js';
import type { AgentHooks, ModelMessage } from '../agent/index.js';
import type { EgressGate } from '../gates/index.js';
import type { Approver, ToolHooks } from '../gateway/index.js';
import type { ControlBus } from './control-bus.js';
import type { HostApprovalMode } from './permission-modes.js';
import type { SeededFile } from './schemas.js';
import type { SessionControls } from './session-controls.js';

/** What one turn is given by the engine. */
export interface RuntimeTurn {
  readonly prompt: string;
  readonly signal: AbortSignal;
  /** Answers `ask` verdicts (the host, or a deny-all when the host cannot be asked). */
  readonly approver: Approver;
  readonly approvalMode: HostApprovalMode;
  readonly maxTurns: number | undefined;
  /** A UserPromptSubmit hook's context: the model reads it after the prompt, as the host's. */
  readonly context?: string;
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
  /** Run parameters, permission updates, MCP servers and tasks the host may change (`session-controls.ts`). */
  readonly controls: SessionControls;
  /** The session's start limits (the ceilings of `set_variable`). */
  startLimits(): { maxTurns: number; maxTokens?: number; maxCostUsd?: number };
  /** Canonical tool name for a host's spelling (`Bash` → `shell`). */
  canonicalTool(name: string): string;
  /** The kind of work a tool does (`read`, `edit`, `shell`, `fetch`, `mcp`, …), for ACP tool calls. */
  toolKind(name: string): string;
  /** The conversation so far (for an ACP session's transcript); empty before the first turn. */
  history(): readonly ModelMessage[];
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
  /** The control channel to the host: SDK MCP servers are reached over it. */
  readonly bus?: ControlBus;
  /** The host's hooks (registered at initialize); absent: none. */
  readonly hooks?: { readonly tools: ToolHooks; readonly agent?: AgentHooks };
  /** Names of the host's in-process MCP servers (`initialize.sdkMcpServers`). */
  readonly sdkMcpServers?: readonly string[];
  /** The egress channel the session's output leaves by (default `stream-json`; ACP: `acp`). */
  readonly channel?: string;
  /** A conversation to continue (an ACP session loaded from its transcript). */
  readonly history?: readonly ModelMessage[];
}

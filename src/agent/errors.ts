import { TwinlineError } from '../core/index.js';

/**
 * No model provider is configured. The lines layer turns this into the read-only degraded path;
 * the runtime never pretends to have a model.
 */
export class NoProviderError extends TwinlineError {
  constructor(where = 'model provider') {
    super(
      'agent.no_provider',
      'no model is configured (set --model, TWINLINE_MODEL, or the config file model entry)',
      { where },
    );
  }
}

/** A provider spec (`scripted:PATH`, `openai:MODEL`, …) or a scripted file that cannot be used. */
export class ProviderConfigError extends TwinlineError {}

/** How a model request failed (docs/agent.md, "Model services"). */
export type ModelFailure =
  /** No response within the request timeout. */
  | 'timeout'
  /** A streamed response went silent for longer than the stream-idle timeout. */
  | 'stream_idle'
  /** The service could not be reached (refused, reset, DNS, TLS). */
  | 'connection'
  /** The service answered with an error status. */
  | 'http'
  /** The service answered something that is not a usable response. */
  | 'bad_response';

/**
 * The model service failed after retries, or answered something unusable. `message` says what
 * happened in our words (for the operator's log); `detail` holds what the service itself said
 * (status line, error body), which goes to the log and the ticket, never to the end user, who
 * gets {@link modelFailureSentence}.
 */
export class ProviderError extends TwinlineError {
  readonly status: number | undefined;
  readonly failure: ModelFailure;
  readonly detail: string;
  constructor(
    message: string,
    options: { where: string; status?: number; cause?: unknown; failure?: ModelFailure; detail?: string },
  ) {
    super('agent.provider_failed', message, {
      where: options.where,
      details: {
        failure: options.failure ?? 'http',
        ...(options.status === undefined ? {} : { status: options.status }),
      },
      cause: options.cause,
    });
    this.status = options.status;
    this.failure = options.failure ?? (options.status === undefined ? 'bad_response' : 'http');
    this.detail = options.detail ?? '';
  }
}

/** The plain sentence an end user is told when the model service failed (no provider internals). */
export function modelFailureSentence(failure: ModelFailure): string {
  switch (failure) {
    case 'timeout':
    case 'stream_idle':
      return 'the model service did not answer in time';
    case 'connection':
      return 'the model service could not be reached';
    default:
      return 'the model service returned an error';
  }
}

/** The scripted provider was asked for more turns than its script holds. */
export class ScriptExhaustedError extends TwinlineError {
  constructor(where: string, played: number) {
    super('agent.script_exhausted', `the script has no turn left after ${played} turn(s)`, { where });
  }
}

/** Work was stopped by an interrupt or by the cancellation of a parent agent. */
export class InterruptedError extends TwinlineError {
  constructor(where: string, reason = 'interrupted') {
    super('agent.interrupted', reason, { where });
  }
}

/** A control tool was called outside an agent run the runtime knows (a wiring bug, never a model's doing). */
export class NoAgentFrameError extends TwinlineError {
  constructor(tool: string) {
    super('agent.no_frame', 'the call is not attached to a running agent', { where: tool });
  }
}

/** The agent tool named a definition that does not exist or is not available to the caller. */
export class UnknownAgentDefinitionError extends TwinlineError {
  constructor(name: string) {
    super('agent.unknown_definition', `no agent definition named "${name}" is available`, {
      where: 'agent',
    });
  }
}

/** Spawning would exceed the nesting depth limit. */
export class SubagentDepthError extends TwinlineError {
  constructor(depth: number, max: number) {
    super('agent.depth_exceeded', `a sub-agent at depth ${depth} may not spawn (limit ${max})`, {
      where: 'agent',
    });
  }
}

/** A task, background job or message target that does not exist for the caller. */
export class UnknownTaskError extends TwinlineError {
  constructor(where: string, id: string) {
    super('agent.unknown_task', `no task "${id}" is visible to this agent`, { where });
  }
}

/** The session has no handler for questions to the user (non-interactive run). */
export class NoInteractiveUserError extends TwinlineError {
  constructor() {
    super('agent.no_user', 'this session has no interactive user to answer questions', {
      where: 'ask_user',
    });
  }
}

/** An argument that the control tool cannot act on (after the gateway's schema check). */
export class ControlToolError extends TwinlineError {}

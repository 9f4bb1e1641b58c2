import type { ModelFailure } from './errors.js';
import type { RunStatus } from './events.js';
import type { TokenUsage } from './providers/index.js';

/** How one run of an agent ended. Failures are results, never exceptions. */
export interface RunResult {
  readonly status: RunStatus;
  /** The final answer, or a short explanation for non-completed runs. */
  readonly text: string;
  readonly turns: number;
  readonly usage: TokenUsage;
  readonly durationMs: number;
  readonly error?: {
    readonly code: string;
    readonly message: string;
    /** The model service failed: how (the lines answer on the degraded path). */
    readonly failure?: ModelFailure;
    /** What the service itself said, for the operator's log and the ticket; never shown to the user. */
    readonly detail?: string;
  };
}

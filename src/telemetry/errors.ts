import { TwinlineError } from '../core/index.js';

/** Telemetry settings that cannot mean what they say (an unknown exporter, a bad sampler ratio). */
export class TelemetryError extends TwinlineError {}

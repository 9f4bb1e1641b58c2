import { TwinlineError } from '../core/index.js';

/** A canary operation that cannot proceed (no such version, nothing to roll back, bad percentage…). */
export class CanaryError extends TwinlineError {}

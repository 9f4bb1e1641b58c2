import { TwinlineError } from '../core/index.js';

/** A suite file that cannot be read, parsed or validated. `where` is `file:line`; details name the scenario and field. */
export class EvalSuiteError extends TwinlineError {}

/** A canary operation that cannot proceed (no such version, nothing to roll back, bad percentage…). */
export class CanaryError extends TwinlineError {}

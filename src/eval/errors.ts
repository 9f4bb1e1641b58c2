import { TwinlineError } from '../core/index.js';

/** A suite file that cannot be read, parsed or validated. `where` is `file:line`; details name the scenario and field. */
export class EvalSuiteError extends TwinlineError {}

import { TwinlineError } from '../core/index.js';

/** The shipped classifier weights are missing, unreadable or not a model this code understands. */
export class RouterModelError extends TwinlineError {}

import { TwinlineError } from '../core/index.js';

/** A gateway that cannot mean what its profile says (a slot on without the layer that fills it). */
export class PipelineError extends TwinlineError {}

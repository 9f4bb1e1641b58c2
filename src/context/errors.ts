import { TwinlineError } from '../core/index.js';

/**
 * A context event was refused because it is not a summary: unknown or nested fields, over-long
 * text, or personal data. `details.field` names the offending field, `details.reason` why.
 */
export class ContextEventRejectedError extends TwinlineError {}

/** A preference write outside the whitelist (unknown key, value not allowed). */
export class PreferenceRejectedError extends TwinlineError {}

/** The context bus could not be opened or used (e.g. NATS unreachable). */
export class ContextBusError extends TwinlineError {}

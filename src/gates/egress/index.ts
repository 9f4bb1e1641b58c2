/** The egress gate: the one function that lets text (whole or streamed) leave the system. */
export {
  type BlockedOutput,
  Egress,
  EgressGate,
  type EgressOptions,
  type EgressScope,
  EgressStream,
  type EgressViewer,
  flagNote,
  type GatedText,
  withheldSentence,
} from './egress.js';
export { dropHidingCharacters, HidingCharacterFilter } from './hiding-characters.js';
export { gatedAuditRecord, gatedReview, gatedSteps, gatedTask } from './record-views.js';
export {
  DEFAULT_HOLD_BACK,
  DEFAULT_MAX_HOLD,
  StreamGateConfigError,
  type StreamGateOptions,
  TextStreamGate,
} from './text-stream.js';

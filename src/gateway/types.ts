import type { StageDecision } from '../core/index.js';
import type { CallStatus } from '../store/audit-record.js';

export type {
  ApprovalAnswer,
  ApprovalRequest,
  Approver,
  CallContext,
  CallObservation,
  GatewayObserver,
  GatewayStage,
  ObservedCallEnd,
  PreparedCall,
  ResultStage,
  ResultTransform,
  StageObservation,
  ThirdPartyTextLedger,
  ToolCall,
  ToolHookAnswer,
  ToolHooks,
} from '../core/index.js';

/** What `gateway.invoke` returns. The model only ever sees `modelContent`. */
export interface GatewayResult {
  readonly callId: string;
  readonly tool: string;
  readonly status: CallStatus;
  /** The deciding verdict (the first non-allow, or the last allow when executed). */
  readonly decision: StageDecision;
  /** Every stage's verdict in order. */
  readonly path: readonly StageDecision[];
  /** The gateway-processed output (redacted/quoted) when executed. */
  readonly output?: unknown;
  readonly error?: { readonly code: string; readonly message: string };
  /** Exactly what the model is told about this call. */
  readonly modelContent: string;
  readonly durationMs: number;
  readonly reviewId?: string;
  readonly auditId: string;
}

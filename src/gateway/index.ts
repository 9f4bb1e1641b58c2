export type {
  ApprovalAnswer,
  ApprovalRequest,
  Approver,
  CallContext,
  GatewayResult,
  GatewayStage,
  PreparedCall,
  ResultStage,
  ResultTransform,
  ThirdPartyTextLedger,
  ToolCall,
} from './types.js';

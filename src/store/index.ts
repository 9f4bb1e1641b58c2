export type {
  AdmissionSlotRepository,
  SlotClaim,
  SlotLimits,
  SlotOutcome,
} from './admission-slots.js';
export type { AuditRecord, AuditSink, CallStatus } from './audit-record.js';
export type { AuditQuery, AuditReader } from './audit-repository.js';
export { type AuditBatchWrite, type AuditWriterStats, BatchedAuditWriter } from './audit-writer.js';
export type {
  AuditRecordsTable,
  Database,
  DeepAdmissionSlotsTable,
  IdempotencyKeysTable,
  RawOutputsTable,
  ReviewsTable,
  StoreDb,
  TaskStepsTable,
  TasksTable,
  TicketsTable,
} from './database.js';
export { StoreError, TenantScopeError } from './errors.js';
export { MIGRATION_TABLE, migrateToLatest } from './migrate.js';
export { MIGRATIONS, type StoreDialect, type StoreMigration } from './migrations/index.js';
export {
  INPUT_REVIEW_NAME,
  type InputReview,
  REVIEW_KINDS,
  REVIEW_STATUSES,
  type ReviewItem,
  type ReviewKind,
  type ReviewStatus,
  reviewFromRow,
  storedDecisionSchema,
  storedIdentitySchema,
  type ToolCallReview,
} from './review-record.js';
export type {
  InputReviewRequest,
  ReviewDecision,
  ReviewRepository,
  ReviewRequest,
} from './review-repository.js';
export { openStore, type Store, type StoreAudit, type TenantRepositories } from './store.js';
export {
  type AuditWriterOptions,
  DEFAULT_SQLITE_FILE,
  type OpenStoreOptions,
  resolveStoreTarget,
  type StoreTarget,
} from './store-target.js';
export {
  checkStored,
  parseStoredJson,
  type StoredAt,
  type StoredKind,
  StoredStateError,
  type StoredVersion,
  storedKind,
} from './stored-state.js';
export {
  type NewTask,
  STEP_STATUSES,
  type StepRecord,
  type StepStatus,
  type StepWrite,
  type TaskPatch,
  type TaskRecord,
  type TaskRepository,
} from './task-repository.js';
export { ALL_TENANTS_ADMIN_SCOPE, type TenantScope, tenantScope } from './tenant-scope.js';
export type { TicketRecord, TicketRepository, TicketRequest } from './ticket-repository.js';
export { isStoreUnavailable } from './unavailable.js';
export type { WalCheckpointStats } from './wal-checkpointer.js';

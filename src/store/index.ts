export type { AuditRecord, AuditSink, CallStatus } from './audit-record.js';

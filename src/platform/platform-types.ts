import type { ModelProvider } from '../agent/index.js';
import type { ContextBus } from '../context/index.js';
import type { Identity } from '../core/index.js';
import type { Egress } from '../gates/index.js';
import type { ToolGateway } from '../gateway/index.js';
import type {
  DeepLine,
  GatedLineEvent,
  GatedRequestResult,
  LineDispatcher,
  QuickResultCache,
  ReadonlyLine,
  RecentSummaries,
  RequestOptions,
} from '../lines/index.js';
import type { BreakerOptions, DeepAdmission, ToolBreakers } from '../resilience/index.js';
import type { ReviewService } from '../review/index.js';
import type { ConfiguredRouter } from '../router/index.js';
import type { Runtime } from '../runtime/index.js';
import type { AuditRecord, Store } from '../store/index.js';
import type { Telemetry, TwinlineLogger } from '../telemetry/index.js';
import type { ToolSpec } from '../tools/index.js';
import type { ReviewDecisionResult } from './review-workflow.js';
import type { RoutingLog } from './routing-log.js';

export interface PlatformOptions {
  /** Model for the lines (`scripted:PATH`, `openai:MODEL`, …); default `TWINLINE_MODEL`; none → degraded. */
  readonly model?: string;
  readonly openedStore?: Store;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Quick-line calls per window per user (default 10). */
  readonly quickQps?: number;
  /** Length of the quick-line rate window in seconds (default 1: a QPS limit). */
  readonly quickWindowSeconds?: number;
  /** Deep tasks running at once (overrides `lines.deep.admission.concurrency`; default 4). */
  readonly deepConcurrency?: number;
  /** A shared Redis (`ioredis`) for rate limits and the read cache across processes. */
  readonly redis?: import('ioredis').Redis;
  /** Prefix of this deployment's Redis keys (default `twinline`), so deployments can share a Redis. */
  readonly redisPrefix?: string;
  readonly now?: () => Date;
  readonly taskLeaseMs?: number;
  /** Sees every audit record the line gateways write (metrics). */
  readonly onAudit?: (rec: AuditRecord) => void;
  /** The context bus (default: `openContextBus` — NATS when `TWINLINE_NATS_URL`, else in-process). */
  readonly contextBus?: ContextBus;
  /** Per-tool circuit breaker settings (default: open at 30% failures of 20 calls, half-open after 10 s). */
  readonly breakers?: BreakerOptions;
  /** Wraps every registry tool before the lines see it (benchmarks: an injected backend delay). */
  readonly wrapTool?: (tool: ToolSpec) => ToolSpec;
  /** Wraps every model provider the lines get (eval: counts the turns a scripted model is asked for). */
  readonly wrapProvider?: (provider: ModelProvider) => ModelProvider;
  /**
   * Structured logs (`src/telemetry`): one line per request (id, tenant, route, outcome,
   * latency), one per gateway decision at `debug`, model-service failures at `warn` with what
   * the service said. Never arguments, request text or answers. Default: no logging.
   */
  readonly logger?: TwinlineLogger;
  /** Traces and metrics of the request path (docs/operations.md); absent: none, at no cost. */
  readonly telemetry?: Telemetry;
}

export type LineName = 'deep' | 'quick' | 'readonly';

/** `handle`'s options: a line request's, with gated events and the door's channel. */
export type PlatformRequestOptions = Omit<RequestOptions, 'emit'> & {
  /** The door, recorded in the watermark (default `api`). */
  readonly channel?: string;
  /** Receives every event of the request, gated for the requester. */
  readonly emit?: (event: GatedLineEvent) => void;
};

/** Twinline assembled: one gateway per line, the lines, the dispatcher, reviews and resilience. */
export interface Platform {
  readonly runtime: Runtime;
  readonly store: Store;
  readonly gateways: Readonly<Record<LineName, ToolGateway>>;
  readonly dispatcher: LineDispatcher;
  readonly deep: DeepLine;
  /** The read-only line: retrieval answers, and the degraded path with a ticket. */
  readonly readonlyLine: ReadonlyLine;
  readonly reviews: ReviewService;
  readonly breakers: ToolBreakers;
  readonly routing: RoutingLog;
  /** The domain's router (its rules and, when configured, its trained model). */
  readonly router: ConfiguredRouter;
  /** The lines' tool names after patterns were expanded (`lines.*.allow`). */
  readonly lineTools: { readonly deep: readonly string[]; readonly quick: readonly string[] };
  readonly cache: QuickResultCache;
  /** Fair admission of deep tasks (caps per tenant and user; shared in the store on PostgreSQL). */
  readonly deepQueue: DeepAdmission;
  /** Summary events between lines (the context bus) and each user's recent summaries. */
  readonly context: RecentSummaries;
  /** The egress gate every text this platform sends passes (docs/gates.md, "Egress"). */
  readonly egress: Egress;
  /**
   * Routes and runs one request for a trusted identity. Everything that leaves passes the egress
   * gate for that identity: the answer (outbound classifier, PII masking for the viewer, session
   * watermark) and every event handed to `emit` (streamed text held to a safe boundary first).
   */
  handle(identity: Identity, query: string, options?: PlatformRequestOptions): Promise<GatedRequestResult>;
  /** Cancels a deep task: aborts it here if it runs here, and marks it so no process continues it. */
  cancelTask(tenant: string, taskId: string): Promise<boolean>;
  /** Approves a review (reviewer of the same tenant): runs the call once, and continues its task. */
  approveReview(reviewer: Identity, id: string, note?: string): Promise<ReviewDecisionResult>;
  /** Denies a review; a deep task waiting on it continues without that step. */
  denyReview(reviewer: Identity, id: string, note?: string): Promise<ReviewDecisionResult>;
  /** Starts every deep task left unfinished by a stopped process (whose lease has lapsed). */
  resumeTasks(): Promise<number>;
  /**
   * The periodic sweep (`twinline serve`, `TWINLINE_SWEEP_MS`): expires stale reviews, lets
   * reviewer rules decide, runs approved calls, then wakes the tasks whose review ended and resumes
   * what a stopped process left (`resumeTasks`). The number of tasks started.
   */
  sweep(): Promise<number>;
  close(): Promise<void>;
}

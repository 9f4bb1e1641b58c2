import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { StageDecision } from '../core/index.js';
import type { Platform } from '../platform/index.js';
import type { AuditRecord, AuditSink } from '../store/index.js';
import type { ModelTurnMetrics, TelemetryMetrics } from '../telemetry/index.js';
import { DecisionCounter, StageHistogram } from './stage-metrics.js';

/** Stage latencies are microseconds to milliseconds; the execution and model turns are longer. */
const STAGE_BUCKETS = [0.00001, 0.00005, 0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.25, 1, 5];
const MODEL_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const WAIT_BUCKETS = [0.001, 0.01, 0.1, 0.5, 1, 5, 15, 60, 300];

/**
 * Prometheus metrics of one server process (`GET /metrics`; docs/operations.md, "Metrics"): every
 * definition is here. Labels are names from the configuration — route, line, stage, verdict,
 * rule id, tool, model — never a tenant, a user or anything a request carried, so the page tells
 * no tenant anything about another's requests.
 */
export class ServerMetrics implements TelemetryMetrics {
  readonly registry = new Registry();
  readonly http: Histogram<'route' | 'method' | 'status'>;
  readonly requests: Counter<'target' | 'outcome'>;
  readonly calls: Counter<'tool' | 'status' | 'domain'>;
  readonly decisions: DecisionCounter;
  readonly stageSeconds: StageHistogram;
  readonly modelSeconds: Histogram<'provider' | 'model' | 'outcome'>;
  readonly modelTokens: Counter<'provider' | 'model' | 'type'>;
  readonly queueWaitSeconds: Histogram<'line'>;
  readonly inputVerdicts: Counter<'verdict'>;

  /** `platform` may be given later (a getter), when the metrics must exist before the platform. */
  constructor(platform: Platform | (() => Platform | undefined)) {
    const current = typeof platform === 'function' ? platform : () => platform;
    const registers = [this.registry];
    this.http = new Histogram({
      name: 'twinline_http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
      registers,
    });
    this.requests = new Counter({
      name: 'twinline_requests_total',
      help: 'Agent requests by line and outcome',
      labelNames: ['target', 'outcome'],
      registers,
    });
    this.calls = new Counter({
      name: 'twinline_tool_calls_total',
      help: 'Tool calls through the gateway by tool, final status and line',
      labelNames: ['tool', 'status', 'domain'],
      registers,
    });
    // Labels name tools and states only, never a tenant: the metrics are the operator's, and a
    // count per tool says nothing about which tenant's breaker is open (docs/server.md).
    new Gauge({
      name: 'twinline_breaker_open',
      help: 'Tool-wide circuit breaker state per tool (0 closed, 0.5 half-open, 1 open)',
      labelNames: ['tool'],
      registers,
      collect() {
        this.reset();
        const platform = current();
        if (!platform) return;
        for (const b of platform.breakers.overview()) {
          this.set({ tool: b.tool }, b.toolState === 'open' ? 1 : b.toolState === 'half_open' ? 0.5 : 0);
        }
      },
    });
    new Gauge({
      name: 'twinline_tenant_breakers',
      help: "How many tenants' own breakers of a tool are open or half-open",
      labelNames: ['tool', 'state'],
      registers,
      collect() {
        this.reset();
        const platform = current();
        if (!platform) return;
        for (const b of platform.breakers.overview()) {
          this.set({ tool: b.tool, state: 'open' }, b.tenantsOpen);
          this.set({ tool: b.tool, state: 'half_open' }, b.tenantsHalfOpen);
        }
      },
    });
    new Gauge({
      name: 'twinline_deep_queue',
      help: 'Deep-line tasks running and waiting in this process',
      labelNames: ['state'],
      registers,
      collect() {
        const platform = current();
        if (!platform) return;
        this.set({ state: 'running' }, platform.deepQueue.running);
        this.set({ state: 'waiting' }, platform.deepQueue.waiting);
      },
    });
    new Gauge({
      name: 'twinline_quick_cache_hits',
      help: 'Quick-line read cache hits and misses since start',
      labelNames: ['result'],
      registers,
      collect() {
        const platform = current();
        if (!platform) return;
        this.set({ result: 'hit' }, platform.cache.hits);
        this.set({ result: 'miss' }, platform.cache.misses);
      },
    });
    // Observed for every stage of every call: kept outside prom-client until read (stage-metrics.ts).
    this.decisions = new DecisionCounter(
      'twinline_stage_decisions_total',
      'Gateway stage decisions by stage, verdict and rule id',
    );
    this.stageSeconds = new StageHistogram(
      'twinline_stage_duration_seconds',
      'Time one gateway stage took for one call (stage "execute": the tool itself)',
      'stage',
      STAGE_BUCKETS,
    );
    this.registry.registerMetric(this.decisions as never);
    this.registry.registerMetric(this.stageSeconds as never);
    this.modelSeconds = new Histogram({
      name: 'twinline_model_turn_duration_seconds',
      help: 'Model turn latency by provider, model and outcome',
      labelNames: ['provider', 'model', 'outcome'],
      buckets: MODEL_BUCKETS,
      registers,
    });
    this.modelTokens = new Counter({
      name: 'twinline_model_tokens_total',
      help: 'Model tokens by provider, model and type (input, output)',
      labelNames: ['provider', 'model', 'type'],
      registers,
    });
    this.queueWaitSeconds = new Histogram({
      name: 'twinline_queue_wait_seconds',
      help: 'Time a task waited in a line queue before it started',
      labelNames: ['line'],
      buckets: WAIT_BUCKETS,
      registers,
    });
    this.inputVerdicts = new Counter({
      name: 'twinline_input_gate_total',
      help: 'Requests judged by the input gate, by verdict',
      labelNames: ['verdict'],
      registers,
    });
    new Gauge({
      name: 'twinline_review_queue_pending',
      help: 'Reviews waiting for a decision',
      registers,
      async collect() {
        const platform = current();
        if (!platform) return;
        this.set((await platform.store.admin.reviews.pendingSummary()).pending);
      },
    });
    new Gauge({
      name: 'twinline_review_queue_oldest_age_seconds',
      help: 'Age of the oldest review waiting for a decision (0 when none waits)',
      registers,
      async collect() {
        const platform = current();
        if (!platform) return;
        const { oldestCreatedAt } = await platform.store.admin.reviews.pendingSummary();
        this.set(oldestCreatedAt ? Math.max(0, (Date.now() - Date.parse(oldestCreatedAt)) / 1000) : 0);
      },
    });
  }

  stage(stage: string, decision: StageDecision | undefined, seconds: number): void {
    this.stageSeconds.observe(stage, seconds);
    if (decision) this.decisions.inc(stage, decision);
  }

  modelTurn(t: ModelTurnMetrics): void {
    this.modelSeconds.observe({ provider: t.provider, model: t.model, outcome: t.outcome }, t.seconds);
    if (t.inputTokens > 0)
      this.modelTokens.inc({ provider: t.provider, model: t.model, type: 'input' }, t.inputTokens);
    if (t.outputTokens > 0)
      this.modelTokens.inc({ provider: t.provider, model: t.model, type: 'output' }, t.outputTokens);
  }

  queueWait(line: string, seconds: number): void {
    this.queueWaitSeconds.observe({ line }, seconds);
  }

  inputGate(verdict: string): void {
    this.inputVerdicts.inc({ verdict });
  }

  /** An audit sink that counts every call, then forwards the record unchanged. */
  countingSink(inner: AuditSink): AuditSink {
    return {
      record: (rec: AuditRecord) => {
        this.calls.inc({ tool: rec.tool, status: rec.status, domain: rec.domain });
        inner.record(rec);
      },
      flush: () => inner.flush(),
    };
  }
}

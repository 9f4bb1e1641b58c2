import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Platform } from '../platform/index.js';
import type { AuditRecord, AuditSink } from '../store/index.js';

/** Prometheus metrics of one server process (`GET /metrics`). */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly http: Histogram<'route' | 'method' | 'status'>;
  readonly requests: Counter<'target' | 'outcome'>;
  readonly calls: Counter<'tool' | 'status' | 'domain'>;

  constructor(platform: Platform) {
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
        this.set({ result: 'hit' }, platform.cache.hits);
        this.set({ result: 'miss' }, platform.cache.misses);
      },
    });
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

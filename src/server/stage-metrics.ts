import type { StageDecision } from '../core/index.js';

// Metrics observed a dozen times per tool call (every stage of every call) are kept in plain
// arrays and maps and handed to prom-client's registry only when /metrics is read: prom-client's
// own labelled observe hashes the label set on every call, which would be most of what
// observing a stage costs (docs/operations.md, "Metrics").

interface Exported {
  readonly labels: Record<string, string | number>;
  readonly value: number;
  readonly metricName?: string;
}

/** A histogram with one label, for the registry (`registerMetric`). */
export class StageHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly labelNames: readonly string[];
  readonly #series = new Map<string, { buckets: number[]; sum: number; count: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly label: string,
    readonly bounds: readonly number[],
  ) {
    this.labelNames = [label];
  }

  observe(value: string, seconds: number): void {
    let s = this.#series.get(value);
    if (!s) {
      s = { buckets: new Array<number>(this.bounds.length).fill(0), sum: 0, count: 0 };
      this.#series.set(value, s);
    }
    let i = 0;
    while (i < this.bounds.length && seconds > this.bounds[i]!) i++;
    if (i < this.bounds.length) s.buckets[i]!++;
    s.sum += seconds;
    s.count++;
  }

  get(): { name: string; help: string; type: string; aggregator: string; values: Exported[] } {
    const values: Exported[] = [];
    for (const [v, s] of this.#series) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += s.buckets[i]!;
        values.push({
          metricName: `${this.name}_bucket`,
          labels: { le, [this.label]: v },
          value: cumulative,
        });
      });
      values.push({
        metricName: `${this.name}_bucket`,
        labels: { le: '+Inf', [this.label]: v },
        value: s.count,
      });
      values.push({ metricName: `${this.name}_sum`, labels: { [this.label]: v }, value: s.sum });
      values.push({ metricName: `${this.name}_count`, labels: { [this.label]: v }, value: s.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.#series.clear();
  }
}

/** Decisions counted by stage, verdict and rule, for the registry (`registerMetric`). */
export class DecisionCounter {
  readonly type = 'counter';
  readonly aggregator = 'sum';
  readonly labelNames = ['stage', 'verdict', 'rule'] as const;
  readonly #series = new Map<string, { labels: Record<string, string>; value: number }>();
  // Most allows are shared constant decisions: found by identity before any key is built.
  readonly #byDecision = new WeakMap<StageDecision, { labels: Record<string, string>; value: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  inc(stage: string, d: StageDecision): void {
    let s = d.stage === stage ? this.#byDecision.get(d) : undefined;
    if (!s) {
      const key = `${stage}\0${d.verdict}\0${d.ruleId}`;
      s = this.#series.get(key);
      if (!s) {
        s = { labels: { stage, verdict: d.verdict, rule: d.ruleId }, value: 0 };
        this.#series.set(key, s);
      }
      if (d.stage === stage && Object.isFrozen(d)) this.#byDecision.set(d, s);
    }
    s.value++;
  }

  get(): { name: string; help: string; type: string; aggregator: string; values: Exported[] } {
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: [...this.#series.values()].map((s) => ({ labels: s.labels, value: s.value })),
    };
  }

  reset(): void {
    this.#series.clear();
  }
}

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ServerMetrics } from '../../src/server/index.js';

// The Grafana dashboard in examples/ asks only for metrics `twinline serve` exports, grouped by
// labels those metrics have, and covers every family the server defines.

const dashboard = JSON.parse(readFileSync('examples/grafana/twinline-dashboard.json', 'utf8')) as {
  panels: { title: string; targets: { expr: string }[] }[];
};

describe('examples/grafana/twinline-dashboard.json', () => {
  it('uses only exported metrics and labels, and every metric family has a panel', async () => {
    const metrics = new ServerMetrics(() => undefined);
    const families = new Map(
      (await metrics.registry.getMetricsAsJSON()).map((m) => [
        m.name,
        new Set(
          (metrics.registry.getSingleMetric(m.name) as unknown as { labelNames?: string[] } | undefined)
            ?.labelNames ?? [],
        ),
      ]),
    );
    const used = new Set<string>();
    for (const p of dashboard.panels) {
      for (const t of p.targets) {
        const names = [...t.expr.matchAll(/twinline_[a-z_]+/g)].map((m) =>
          m[0].replace(/_(bucket|count|sum)$/, ''),
        );
        expect(names.length, `${p.title}: ${t.expr}`).toBeGreaterThan(0);
        for (const name of names) {
          expect(families.has(name), `${p.title}: unknown metric ${name}`).toBe(true);
          used.add(name);
          const labels = families.get(name)!;
          for (const m of t.expr.matchAll(/by \(([^)]*)\)/g))
            for (const l of m[1]!.split(',').map((s) => s.trim()))
              if (l !== 'le') expect(labels.has(l), `${p.title}: ${name} has no label ${l}`).toBe(true);
        }
      }
    }
    expect([...families.keys()].filter((f) => !used.has(f))).toEqual([]);
  });
});

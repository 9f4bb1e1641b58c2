import type { BaselineComparison } from './compare-baseline.js';
import type { EvalReport } from './report.js';
import { SCENARIO_KINDS } from './suite-schema.js';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const pct = (n: number) => `${(n * 100).toFixed(1)}%`;

/** Horizontal bars (inline SVG): one per label, value in [0, max]. */
function barChart(
  title: string,
  bars: readonly { label: string; value: number; text: string; color: string }[],
  max: number,
): string {
  const rowH = 26;
  const width = 560;
  const labelW = 110;
  const h = bars.length * rowH + 30;
  const rows = bars
    .map((b, i) => {
      const y = 24 + i * rowH;
      const w = max > 0 ? Math.max(1, ((width - labelW - 90) * b.value) / max) : 1;
      return `<text x="0" y="${y + 14}" font-size="12">${esc(b.label)}</text><rect x="${labelW}" y="${y}" width="${w.toFixed(1)}" height="18" fill="${b.color}"/><text x="${labelW + w + 6}" y="${y + 14}" font-size="12">${esc(b.text)}</text>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${h}" role="img" aria-label="${esc(title)}"><text x="0" y="14" font-size="13" font-weight="bold">${esc(title)}</text>${rows}</svg>`;
}

/** A self-contained HTML page (inline CSS and SVG charts, no scripts or CDN) for an eval report. */
export function renderHtmlReport(report: EvalReport, comparison?: BaselineComparison): string {
  const s = report.summary;
  const kinds = SCENARIO_KINDS.filter((k) => s.by_kind[k]);
  const success = barChart(
    'Success rate by kind',
    kinds.map((k) => {
      const m = s.by_kind[k]!;
      return {
        label: k,
        value: m.success_rate,
        text: `${pct(m.success_rate)} (${m.passed}/${m.scenarios})`,
        color: m.success_rate === 1 ? '#2e7d32' : '#f9a825',
      };
    }),
    1,
  );
  const maxP95 = Math.max(1, ...kinds.map((k) => s.by_kind[k]!.latency_ms.p95));
  const latency = barChart(
    'Latency p95 by kind (ms)',
    kinds.map((k) => {
      const m = s.by_kind[k]!;
      return {
        label: k,
        value: m.latency_ms.p95,
        text: `p95 ${m.latency_ms.p95} ms, avg ${m.latency_ms.avg} ms`,
        color: '#1565c0',
      };
    }),
    maxP95,
  );
  const misuse = barChart(
    'Misused calls by kind',
    kinds.map((k) => {
      const m = s.by_kind[k]!;
      return {
        label: k,
        value: m.misuse_calls,
        text: `${m.misuse_calls} of ${m.proposed_calls} proposed`,
        color: '#c62828',
      };
    }),
    Math.max(1, ...kinds.map((k) => s.by_kind[k]!.misuse_calls)),
  );
  const rows = report.scenarios
    .map(
      (r) =>
        `<tr class="${r.passed ? 'ok' : 'bad'}"><td>${esc(r.id)}</td><td>${r.kind}</td><td>${r.passed ? 'pass' : 'FAIL'}</td><td>${esc(r.route)}</td><td>${esc(r.outcome)}</td><td>${esc(r.executed.join(', '))}</td><td>${esc(r.denied.join(', '))}</td><td>${r.latency_ms}</td><td>${esc(r.failures.join('; '))}</td></tr>`,
    )
    .join('\n');
  const changed = comparison
    ? `<h2>Against the baseline</h2><p>success rate ${comparison.success_rate_delta >= 0 ? '+' : ''}${(comparison.success_rate_delta * 100).toFixed(2)} points, misuse rate ${comparison.misuse_rate_delta >= 0 ? '+' : ''}${comparison.misuse_rate_delta}, p95 ${comparison.latency_ms.p95_delta >= 0 ? '+' : ''}${comparison.latency_ms.p95_delta} ms</p><table><tr><th>scenario</th><th>kind</th><th>change</th><th>before</th><th>after</th></tr>${comparison.changed
        .map(
          (c) =>
            `<tr><td>${esc(c.id)}</td><td>${c.kind}</td><td>${c.change}</td><td>${c.before ? esc(`${c.before.passed ? 'pass' : 'fail'} ${c.before.route} ${c.before.outcome} [${c.before.executed.join(', ')}]`) : ''}</td><td>${c.after ? esc(`${c.after.passed ? 'pass' : 'fail'} ${c.after.route} ${c.after.outcome} [${c.after.executed.join(', ')}]`) : ''}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Twinline eval report</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}tr.bad{background:#fdecea}.cards{display:flex;gap:1em;margin:1em 0}.card{border:1px solid #ccc;padding:.6em 1em;border-radius:6px}.card b{display:block;font-size:20px}svg{margin:1em 2em 1em 0}</style></head>
<body><h1>Twinline eval report</h1><p>${esc(report.meta.started_at)} — ${esc(report.meta.suites.join(', '))}</p>
<div class="cards"><div class="card">scenarios<b>${s.scenarios}</b></div><div class="card">success rate<b>${pct(s.success_rate)}</b></div><div class="card">misuse rate<b>${pct(s.misuse_rate)}</b></div><div class="card">latency avg / p95<b>${s.latency_ms.avg} / ${s.latency_ms.p95} ms</b></div></div>
${success}${misuse}${latency}${changed}
<h2>Scenarios</h2><table><tr><th>id</th><th>kind</th><th>result</th><th>route</th><th>outcome</th><th>executed</th><th>denied</th><th>ms</th><th>failures</th></tr>
${rows}
</table></body></html>
`;
}

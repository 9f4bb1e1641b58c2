import type { RouterModel } from './classifier.js';
import { classifyNormalized } from './classifier.js';
import { normalizeRequest } from './normalize.js';
import { route } from './route.js';
import {
  fitTemperature,
  type LabelledRequest,
  seededRandom,
  shuffleSeeded,
  trainRouterModel,
} from './train.js';
import { DEFAULT_ROUTE_THRESHOLD, ROUTE_CLASSES, type RouteClass } from './types.js';

/** One bin of the calibration curve: classifier top score against how often it was right. */
export interface CalibrationBin {
  from: number;
  to: number;
  n: number;
  meanScore: number;
  accuracy: number;
}

export interface DomainTrainingResult {
  model: RouterModel;
  split: { train: number; calibration: number; test: number };
  threshold: number;
  /** Full router (classifier + threshold) on the test split. */
  accuracy: number;
  /** Share of deep and quick test requests sent to their line. */
  actionableRight: number | null;
  /** Share of readonly_fallback test requests kept off the tool lines. */
  fallbackKept: number | null;
  confusion: Record<RouteClass, Record<RouteClass, number>>;
  calibration: CalibrationBin[];
}

const BINS = [0, 0.5, 0.7, 0.82, 0.9, 0.95, 1.0000001];

/**
 * Trains a router for another domain from its own labelled requests: a stratified split
 * (70% train, 15% to fit the temperature, 15% test, by label), the model, and its figures on the
 * test split — the confusion matrix of the full router and the calibration curve of the
 * classifier's top score. Pure (no I/O); `twinline router train` writes the model and report.
 */
export function trainForDomain(
  rows: readonly LabelledRequest[],
  options: { seed?: number; epochs?: number; threshold?: number } = {},
): DomainTrainingResult {
  const rand = seededRandom(options.seed ?? 13);
  const train: LabelledRequest[] = [];
  const cal: LabelledRequest[] = [];
  const test: LabelledRequest[] = [];
  for (const label of ROUTE_CLASSES) {
    const g = shuffleSeeded(
      rows.filter((r) => r.label === label),
      rand,
    );
    const nTest = Math.max(1, Math.round(g.length * 0.15));
    const nCal = Math.max(1, Math.round(g.length * 0.15));
    test.push(...g.slice(0, nTest));
    cal.push(...g.slice(nTest, nTest + nCal));
    train.push(...g.slice(nTest + nCal));
  }
  const model = trainRouterModel(train, { seed: options.seed ?? 13, epochs: options.epochs ?? 40 });
  model.temperature = fitTemperature(model, cal);
  const threshold = options.threshold ?? DEFAULT_ROUTE_THRESHOLD;
  const confusion = Object.fromEntries(
    ROUTE_CLASSES.map((g) => [g, Object.fromEntries(ROUTE_CLASSES.map((p) => [p, 0]))]),
  ) as Record<RouteClass, Record<RouteClass, number>>;
  let ok = 0;
  let actionable = 0;
  let actionableOk = 0;
  let fallback = 0;
  let fallbackOk = 0;
  const scored: Array<{ score: number; right: boolean }> = [];
  for (const r of test) {
    const t = route(r.query, { model, threshold }).target;
    confusion[r.label][t]++;
    if (t === r.label) ok++;
    if (r.label === 'readonly_fallback') {
      fallback++;
      if (t === r.label) fallbackOk++;
    } else {
      actionable++;
      if (t === r.label) actionableOk++;
    }
    const p = classifyNormalized(model, normalizeRequest(r.query));
    let best = 0;
    for (let k = 1; k < p.length; k++) if (p[k]! > p[best]!) best = k;
    scored.push({ score: p[best]!, right: ROUTE_CLASSES[best] === r.label });
  }
  const calibration: CalibrationBin[] = [];
  for (let b = 0; b + 1 < BINS.length; b++) {
    const inBin = scored.filter((s) => s.score >= BINS[b]! && s.score < BINS[b + 1]!);
    calibration.push({
      from: BINS[b]!,
      to: Math.min(1, BINS[b + 1]!),
      n: inBin.length,
      meanScore: inBin.length ? inBin.reduce((a, s) => a + s.score, 0) / inBin.length : 0,
      accuracy: inBin.length ? inBin.filter((s) => s.right).length / inBin.length : 0,
    });
  }
  return {
    model,
    split: { train: train.length, calibration: cal.length, test: test.length },
    threshold,
    accuracy: test.length ? ok / test.length : 0,
    actionableRight: actionable ? actionableOk / actionable : null,
    fallbackKept: fallback ? fallbackOk / fallback : null,
    confusion,
    calibration,
  };
}

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);

/** A self-contained HTML report: figures, confusion matrix, calibration curve (inline SVG). */
export function domainTrainingReport(result: DomainTrainingResult, source: string): string {
  const W = 360;
  const H = 360;
  const pad = 40;
  const x = (v: number) => pad + v * (W - 2 * pad);
  const y = (v: number) => H - pad - v * (H - 2 * pad);
  const pts = result.calibration.filter((b) => b.n > 0);
  const curve = pts.map((b) => `${x(b.meanScore).toFixed(1)},${y(b.accuracy).toFixed(1)}`).join(' ');
  const dots = pts
    .map(
      (b) =>
        `<circle cx="${x(b.meanScore).toFixed(1)}" cy="${y(b.accuracy).toFixed(1)}" r="${Math.min(9, 3 + Math.sqrt(b.n))}" fill="#2a6fdb"><title>${b.from}–${b.to}: n=${b.n}, mean score ${b.meanScore.toFixed(3)}, accuracy ${pct(b.accuracy)}</title></circle>`,
    )
    .join('');
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (t) =>
        `<text x="${x(t)}" y="${H - pad + 16}" font-size="11" text-anchor="middle">${t}</text><text x="${pad - 8}" y="${y(t) + 4}" font-size="11" text-anchor="end">${t}</text>`,
    )
    .join('');
  const thr = `<line x1="${x(result.threshold)}" y1="${y(0)}" x2="${x(result.threshold)}" y2="${y(1)}" stroke="#c33" stroke-dasharray="4 3"/><text x="${x(result.threshold) + 4}" y="${y(1) + 12}" font-size="11" fill="#c33">threshold ${result.threshold}</text>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" role="img" aria-label="calibration curve"><rect x="${pad}" y="${pad}" width="${W - 2 * pad}" height="${H - 2 * pad}" fill="#fafafa" stroke="#ccc"/><line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#999" stroke-dasharray="2 2"/>${thr}<polyline points="${curve}" fill="none" stroke="#2a6fdb" stroke-width="2"/>${dots}${ticks}<text x="${W / 2}" y="${H - 6}" font-size="12" text-anchor="middle">classifier top score</text><text x="12" y="${H / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 12 ${H / 2})">share right</text></svg>`;
  const head = ROUTE_CLASSES.map((c) => `<th>${c}</th>`).join('');
  const rows = ROUTE_CLASSES.map(
    (g) =>
      `<tr><th>${g}</th>${ROUTE_CLASSES.map((p) => `<td class="${g === p ? 'ok' : ''}">${result.confusion[g][p]}</td>`).join('')}</tr>`,
  ).join('');
  const bins = result.calibration
    .map(
      (b) =>
        `<tr><td>[${b.from}, ${b.to})</td><td>${b.n}</td><td>${b.n ? b.meanScore.toFixed(3) : '—'}</td><td>${b.n ? pct(b.accuracy) : '—'}</td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Router training report</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:60rem}table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:right}th{background:#f3f3f3}td.ok{background:#e6f4ea;font-weight:600}</style></head>
<body><h1>Router training report</h1>
<p>Examples: <code>${esc(source)}</code>. Split by label: ${result.split.train} train, ${result.split.calibration} to fit the temperature (${result.model.temperature}), ${result.split.test} test. Threshold ${result.threshold}.</p>
<ul><li>Full router accuracy on the test split: <b>${pct(result.accuracy)}</b></li><li>deep + quick sent to their line: <b>${pct(result.actionableRight)}</b></li><li>readonly_fallback kept off the tool lines: <b>${pct(result.fallbackKept)}</b></li></ul>
<h2>Confusion matrix (rows: label, columns: routed)</h2><table><tr><th>label \\ routed</th>${head}</tr>${rows}</table>
<h2>Calibration curve</h2><p>Classifier top score against the share of test requests whose top class was right. Points on the diagonal are calibrated; below it the scores are over-confident.</p>${svg}
<table><tr><th>score bin</th><th>n</th><th>mean score</th><th>right</th></tr>${bins}</table>
</body></html>
`;
}

/**
 * `npm run eval:safety`: measures the input gate and the PII recognisers.
 *
 * Injection: precision, recall and false-positive rate (flagged = verdict review|block) per
 * source, subset, language and channel, on ../shared/eval/prompt-injection.jsonl and on our own
 * Chinese set test/fixtures/safety-zh.jsonl. PII: precision/recall per type, exact span and
 * overlapping span, on ../shared/eval/pii-en.jsonl and our own test/fixtures/safety-pii-zh.jsonl.
 * The eval data is only measured here — nothing in src/ reads it.
 *
 * `--json` prints one JSON document instead of tables. `--eval-dir DIR` overrides the shared dir.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPii, scanText } from '../src/gates/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const asJson = args.includes('--json');
const dirArg = args.indexOf('--eval-dir');
const evalDir = dirArg >= 0 ? resolve(args[dirArg + 1]!) : resolve(root, '../shared/eval');

interface InjectionRecord {
  id: string;
  text: string;
  label: 'injection' | 'benign';
  lang: string;
  source: string;
  subset: string;
  channel: 'user_input' | 'tool_output';
}
interface Span {
  type: string;
  start: number;
  end: number;
}
interface PiiRecord {
  id: string;
  text: string;
  spans: Span[];
}

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}
const empty = (): Counts => ({ tp: 0, fp: 0, fn: 0, tn: 0 });
const pct = (n: number, d: number) => (d === 0 ? null : Math.round((1000 * n) / d) / 10);
function metrics(c: Counts) {
  return {
    n: c.tp + c.fp + c.fn + c.tn,
    injections: c.tp + c.fn,
    benign: c.fp + c.tn,
    precision: pct(c.tp, c.tp + c.fp),
    recall: pct(c.tp, c.tp + c.fn),
    fpr: pct(c.fp, c.fp + c.tn),
  };
}

function evalInjection(records: InjectionRecord[]) {
  const groups: Record<string, Map<string, Counts>> = {
    source: new Map(),
    subset: new Map(),
    lang: new Map(),
    channel: new Map(),
    total: new Map(),
  };
  const bump = (dim: string, key: string, r: InjectionRecord, flagged: boolean) => {
    const m = groups[dim]!;
    const c = m.get(key) ?? empty();
    if (r.label === 'injection') flagged ? c.tp++ : c.fn++;
    else flagged ? c.fp++ : c.tn++;
    m.set(key, c);
  };
  for (const r of records) {
    const res = scanText(r.text, { channel: r.channel });
    const flagged = res.verdict !== 'pass';
    bump('source', r.source, r, flagged);
    bump('subset', `${r.source}/${r.subset}`, r, flagged);
    bump('lang', r.lang, r, flagged);
    bump('channel', r.channel, r, flagged);
    bump('total', 'all', r, flagged);
  }
  const out: Record<string, Record<string, ReturnType<typeof metrics>>> = {};
  for (const [dim, m] of Object.entries(groups)) {
    out[dim] = Object.fromEntries([...m.entries()].sort().map(([k, c]) => [k, metrics(c)]));
  }
  return out;
}

function evalPii(records: PiiRecord[]) {
  const types = new Map<
    string,
    { gold: number; pred: number; exact: number; overlapGold: number; overlapPred: number }
  >();
  const get = (t: string) => {
    let e = types.get(t);
    if (!e) {
      e = { gold: 0, pred: 0, exact: 0, overlapGold: 0, overlapPred: 0 };
      types.set(t, e);
    }
    return e;
  };
  const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;
  for (const r of records) {
    const pred = findPii(r.text).map((f) => ({ type: f.type, start: f.start, end: f.end }));
    for (const g of r.spans) {
      const e = get(g.type);
      e.gold++;
      if (pred.some((p) => p.type === g.type && p.start === g.start && p.end === g.end)) e.exact++;
      if (pred.some((p) => p.type === g.type && overlaps(p, g))) e.overlapGold++;
    }
    for (const p of pred) {
      const e = get(p.type);
      e.pred++;
      if (r.spans.some((g) => g.type === p.type && overlaps(p, g))) e.overlapPred++;
    }
  }
  const out: Record<string, unknown> = {};
  for (const [t, e] of [...types.entries()].sort()) {
    if (e.pred === 0 && e.gold === 0) continue;
    out[t] = {
      gold: e.gold,
      predicted: e.pred,
      recall_exact: pct(e.exact, e.gold),
      precision_exact: pct(e.exact, e.pred),
      recall_overlap: pct(e.overlapGold, e.gold),
      precision_overlap: pct(e.overlapPred, e.pred),
    };
  }
  return out;
}

function printTable(title: string, rows: Record<string, Record<string, unknown>>) {
  process.stdout.write(`\n## ${title}\n`);
  const cols = Object.keys(Object.values(rows)[0] ?? {});
  process.stdout.write(`${'key'.padEnd(44)}${cols.map((c) => c.padStart(18)).join('')}\n`);
  for (const [k, v] of Object.entries(rows)) {
    process.stdout.write(`${k.padEnd(44)}${cols.map((c) => String(v[c] ?? '-').padStart(18)).join('')}\n`);
  }
}

const report: Record<string, unknown> = {};
const sets: Array<[string, string]> = [
  ['public prompt-injection', join(evalDir, 'prompt-injection.jsonl')],
  ['own Chinese set (test/fixtures/safety-zh.jsonl)', join(root, 'test/fixtures/safety-zh.jsonl')],
];
for (const [name, path] of sets) {
  if (!existsSync(path)) {
    process.stderr.write(`eval:safety: ${path} not found, skipped\n`);
    continue;
  }
  const res = evalInjection(readJsonl<InjectionRecord>(path));
  report[name] = res;
  if (!asJson) for (const [dim, rows] of Object.entries(res)) printTable(`${name} — by ${dim}`, rows);
}
const piiSets: Array<[string, string]> = [
  ['public pii-en', join(evalDir, 'pii-en.jsonl')],
  [
    'own Chinese PII set (test/fixtures/safety-pii-zh.jsonl)',
    join(root, 'test/fixtures/safety-pii-zh.jsonl'),
  ],
];
for (const [name, path] of piiSets) {
  if (!existsSync(path)) {
    process.stderr.write(`eval:safety: ${path} not found, skipped\n`);
    continue;
  }
  const res = evalPii(readJsonl<PiiRecord>(path));
  report[name] = res;
  if (!asJson) printTable(`${name} — per type`, res as Record<string, Record<string, unknown>>);
}
if (asJson) process.stdout.write(`${JSON.stringify(report)}\n`);

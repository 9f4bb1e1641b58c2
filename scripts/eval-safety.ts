/**
 * `npm run eval:safety`: measures the input gate and the PII recognisers.
 *
 * Injection, per channel / language / source, flagged = verdict review|block:
 * - the sealed set (eval/sealed/injection-texts.jsonl, when delivered) and the own held-out set
 *   (eval/heldout/), never trained on — aggregate figures only, never a text;
 * - the public sets (../shared/eval/prompt-injection.jsonl), leave-one-source-out: each source
 *   is scored by a model trained on every source but that one (the shipped model saw them all,
 *   so it is never the one measured on them); the project's Chinese fixture set likewise;
 * - beside every figure, the old scanner (the recognisers before the learned scorer, loaded from
 *   git at LEGACY_COMMIT) on the same texts.
 * PII: precision/recall per type, exact and overlapping span, on ../shared/eval/pii-en.jsonl and
 * test/fixtures/safety-pii-zh.jsonl.
 *
 * `--json` prints one JSON document instead of tables; `--no-loso` skips the retraining (about a
 * minute); `--eval-dir DIR` overrides the shared dir.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Channel, findPii, scanText } from '../src/gates/index.js';
import { LEGACY_COMMIT, legacyScanner } from './eval-support/legacy.js';
import { measuredSets, pct, printTable } from './eval-support/sets.js';
import { EVAL_DIR, loadSources, ROOT } from './injection-training/data.js';
import { fitChannels } from './injection-training/fit.js';
import { type Example, toExamples } from './injection-training/vectorize.js';
import { flags } from './train-injection.js';

const root = ROOT;
const args = process.argv.slice(2);
const asJson = args.includes('--json');
const dirArg = args.indexOf('--eval-dir');
const evalDir = dirArg >= 0 ? resolve(args[dirArg + 1]!) : EVAL_DIR;

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
function bump(m: Map<string, Counts>, key: string, injection: boolean, flagged: boolean) {
  const c = m.get(key) ?? empty();
  if (injection) flagged ? c.tp++ : c.fn++;
  else flagged ? c.fp++ : c.tn++;
  m.set(key, c);
}
const summary = (c: Counts | undefined) =>
  c
    ? {
        injections: c.tp + c.fn,
        benign: c.fp + c.tn,
        recall: pct(c.tp, c.tp + c.fn),
        fpr: pct(c.fp, c.fp + c.tn),
      }
    : undefined;

interface Scored {
  set: string;
  channel: string;
  lang: string;
  source: string;
  injection: boolean;
  flagged: boolean;
  oldFlagged: boolean | undefined;
}

/** Groups scored texts and prints new beside old, per set × channel (and × language / source). */
function report(title: string, scored: readonly Scored[], by: (s: Scored) => string) {
  const now = new Map<string, Counts>();
  const old = new Map<string, Counts>();
  for (const s of scored) {
    bump(now, by(s), s.injection, s.flagged);
    if (s.oldFlagged !== undefined) bump(old, by(s), s.injection, s.oldFlagged);
  }
  const keys = [...now.keys()].sort();
  const rows = keys.map((k) => {
    const n = summary(now.get(k))!;
    const o = summary(old.get(k));
    return [k, n.injections, n.benign, n.recall, n.fpr, o?.recall, o?.fpr];
  });
  if (!asJson)
    printTable(
      title,
      ['group', 'injections', 'benign', 'recall %', 'FPR %', 'old recall %', 'old FPR %'],
      rows,
    );
  return Object.fromEntries(keys.map((k) => [k, { now: summary(now.get(k)), old: summary(old.get(k)) }]));
}

const out: Record<string, unknown> = {};
const legacy = await legacyScanner();
if (!asJson)
  process.stdout.write(`# Injection scanner\n\nold = the recognisers-only scanner at ${LEGACY_COMMIT}.\n`);

// 1. sealed and own held-out sets: the shipped model, never trained on them
interface SetRow {
  text: string;
  label: 'injection' | 'benign';
  lang: string;
  channel: Channel;
  kind?: string;
}
const measured: Scored[] = [];
for (const set of measuredSets<SetRow>('injection-texts')) {
  for (const r of set.rows) {
    measured.push({
      set: set.name,
      channel: r.channel,
      lang: r.lang,
      source: set.name,
      injection: r.label === 'injection',
      flagged: scanText(r.text, { channel: r.channel }).verdict !== 'pass',
      oldFlagged: legacy ? legacy.scanText(r.text, { channel: r.channel }).verdict !== 'pass' : undefined,
    });
  }
}
out.heldOut = {
  byChannel: report(
    'held-out sets (shipped model, never trained on) — by set × channel',
    measured,
    (s) => `${s.set} / ${s.channel}`,
  ),
  byLang: report(
    'held-out sets — by set × channel × language',
    measured,
    (s) => `${s.set} / ${s.channel} / ${s.lang}`,
  ),
};

// 2. public sets and the project's fixture set: leave one source out
if (!args.includes('--no-loso')) {
  const { rows } = loadSources(join(evalDir, 'prompt-injection.jsonl'));
  const examples = toExamples(rows);
  // public sources and the fixture set; the hand-written training rows are scored by the
  // trainer's cross-validation instead (`train-injection.ts --written-cv`: leaving out
  // `written` alone would leave its augmented copies in training)
  const held = [
    ...new Set(
      rows.filter((r) => !/^(?:generated|written|written-augmented)$/.test(r.source)).map((r) => r.source),
    ),
  ].sort();
  const loso: Scored[] = [];
  for (const source of held) {
    const fold = fitChannels(examples.filter((e) => e.row.source !== source));
    for (const e of examples.filter((x: Example) => x.row.source === source)) {
      loso.push({
        set: 'loso',
        channel: e.row.channel,
        lang: e.row.lang,
        source: `${source}/${e.row.subset ?? '-'}`,
        injection: e.y === 1,
        flagged: flags(fold.model, e),
        oldFlagged: legacy
          ? legacy.scanText(e.row.text, { channel: e.row.channel }).verdict !== 'pass'
          : undefined,
      });
    }
  }
  out.leaveOneSourceOut = {
    byChannel: report('public + fixture sets, leave-one-source-out — by channel', loso, (s) => s.channel),
    byLang: report('leave-one-source-out — by channel × language', loso, (s) => `${s.channel} / ${s.lang}`),
    bySource: report(
      'leave-one-source-out — by source',
      loso,
      (s) => `${s.source.split('/')[0]} / ${s.channel}`,
    ),
    bySubset: report('leave-one-source-out — by source/subset', loso, (s) => `${s.source} / ${s.channel}`),
  };
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

function printPiiTable(title: string, rows: Record<string, Record<string, unknown>>) {
  process.stdout.write(`\n## ${title}\n`);
  const cols = Object.keys(Object.values(rows)[0] ?? {});
  process.stdout.write(`${'key'.padEnd(44)}${cols.map((c) => c.padStart(18)).join('')}\n`);
  for (const [k, v] of Object.entries(rows)) {
    process.stdout.write(`${k.padEnd(44)}${cols.map((c) => String(v[c] ?? '-').padStart(18)).join('')}\n`);
  }
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
  out[name] = res;
  if (!asJson) printPiiTable(`${name} — per type`, res as Record<string, Record<string, unknown>>);
}
if (asJson) process.stdout.write(`${JSON.stringify(out)}\n`);

/**
 * `npm run eval:router`: the router on requests it was never trained on, per set, language and
 * label, beside the old router (the one before the learned rules and word features, loaded from
 * git at LEGACY_COMMIT):
 * - the sealed set (eval/sealed/router-requests.jsonl, when delivered) and the own held-out set
 *   (eval/heldout/) — aggregate figures only, never a request;
 * - the project's hand-written novel test set (data/router/novel-test.jsonl; never trained on).
 * There is no public router set: the "public, leave-one-source-out" column of the injection eval
 * has no counterpart here. Figures: accuracy on deep+quick requests (right line), the share of
 * readonly_fallback requests kept off the tool lines, requests sent to the wrong tool line, and
 * the confusion matrix. `--json` prints one JSON document.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { route } from '../src/router/index.js';
import { LEGACY_COMMIT, legacyRouter } from './eval-support/legacy.js';
import { measuredSets, pct, printTable } from './eval-support/sets.js';

const ROOT = resolve(import.meta.dirname, '..');
const asJson = process.argv.includes('--json');
const LABELS = ['deep', 'quick', 'readonly_fallback'] as const;
type Label = (typeof LABELS)[number];

interface Req {
  text: string;
  label: Label;
  lang: string;
}

function novelSet(): { name: string; rows: Req[] } {
  const rows = readFileSync(resolve(ROOT, 'data/router/novel-test.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { query: string; label: Label; lang: string })
    .map((r) => ({ text: r.query, label: r.label, lang: r.lang }));
  return { name: 'novel test (data/router)', rows };
}

interface Figures {
  n: number;
  actionable: number;
  actionableRight: number | null;
  fallbackKept: number | null;
  wrongToolLine: number;
  confusion: Record<Label, Record<Label, number>>;
}

function figures(rows: readonly Req[], decide: (text: string) => string): Figures {
  const confusion = Object.fromEntries(
    LABELS.map((g) => [g, Object.fromEntries(LABELS.map((p) => [p, 0]))]),
  ) as Record<Label, Record<Label, number>>;
  let actionable = 0;
  let right = 0;
  let fallback = 0;
  let kept = 0;
  let wrong = 0;
  for (const r of rows) {
    const t = decide(r.text) as Label;
    confusion[r.label][t]++;
    if (r.label === 'readonly_fallback') {
      fallback++;
      if (t === 'readonly_fallback') kept++;
    } else {
      actionable++;
      if (t === r.label) right++;
      else if (t !== 'readonly_fallback') wrong++;
    }
  }
  return {
    n: rows.length,
    actionable,
    actionableRight: pct(right, actionable),
    fallbackKept: pct(kept, fallback),
    wrongToolLine: wrong,
    confusion,
  };
}

const legacy = await legacyRouter();
const sets: Array<{ name: string; rows: Req[] }> = [...measuredSets<Req>('router-requests'), novelSet()];
const out: Record<string, unknown> = {};
const summaryRows: unknown[][] = [];
const langRows: unknown[][] = [];
for (const set of sets) {
  const groups: Array<[string, Req[]]> = [
    ['all', set.rows],
    ...[...new Set(set.rows.map((r) => r.lang))]
      .sort()
      .map((l): [string, Req[]] => [l, set.rows.filter((r) => r.lang === l)]),
  ];
  const result: Record<string, unknown> = {};
  for (const [g, rows] of groups) {
    const now = figures(rows, (t) => route(t).target);
    const old = legacy ? figures(rows, (t) => legacy.route(t).target) : undefined;
    result[g] = { now, old };
    const row = [
      `${set.name} / ${g}`,
      now.n,
      now.actionableRight,
      now.fallbackKept,
      now.wrongToolLine,
      old?.actionableRight,
      old?.fallbackKept,
      old?.wrongToolLine,
    ];
    (g === 'all' ? summaryRows : langRows).push(row);
  }
  out[set.name] = result;
}
if (asJson) {
  process.stdout.write(`${JSON.stringify(out)}\n`);
} else {
  process.stdout.write(
    `# Router\n\nold = the router at ${LEGACY_COMMIT}. "deep+quick right": share of deep and quick requests sent to their line; "fallback kept": share of readonly_fallback requests kept off the tool lines.\n`,
  );
  const head = [
    'set',
    'n',
    'deep+quick right %',
    'fallback kept %',
    'wrong tool line',
    'old right %',
    'old kept %',
    'old wrong',
  ];
  printTable('by set', head, summaryRows);
  printTable('by set × language', head, langRows);
  for (const set of sets) {
    const conf = (out[set.name] as Record<string, { now: Figures }>).all!.now.confusion;
    printTable(
      `confusion — ${set.name} (rows: gold)`,
      ['gold \\ routed', ...LABELS],
      LABELS.map((g) => [g, ...LABELS.map((p) => conf[g][p])]),
    );
  }
}

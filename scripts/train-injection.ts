/**
 * Trains the learned injection scorer and writes src/gates/input/model/injection-model.bin.
 *   npx tsx scripts/train-injection.ts [--no-write] [--loso] [--written-cv] [--hand-cv] [--json]
 * Sources and split: scripts/injection-training/data.ts. `--loso` also trains one model per
 * public source with that source left out and reports each source's figures from the model that
 * never saw it (that is what `npm run eval:safety` prints for the public set). `--written-cv`
 * cross-validates on the hand-written set (data/written/): five folds by id, each scored by a
 * model trained on everything but that fold. `--hand-cv` holds out each writer (`hand`) whole:
 * its rows are scored by a model trained without any of them, nor any augmented row built from
 * them — text by a hand the model never saw. Prints one JSON summary line last.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CHANNELS, type Channel, DEFAULT_THRESHOLDS } from '../src/gates/input/index.js';
import {
  decodeInjectionModel,
  encodeInjectionModel,
  type InjectionModel,
} from '../src/gates/input/learned/model.js';
import { isCalibration, loadSources, ROOT, WRITTEN_FOLDS, writtenFold } from './injection-training/data.js';
import { FP_TARGET, fitChannels } from './injection-training/fit.js';
import { exampleLogit } from './injection-training/learn.js';
import { type Example, toExamples } from './injection-training/vectorize.js';

const args = process.argv.slice(2);
/** `--epochs N`, `--lr X`, `--l2 X`, `--seed N` override the learner's defaults (for experiments). */
const learnOverrides = Object.fromEntries(
  (['epochs', 'lr', 'l2', 'seed'] as const).flatMap((k) => {
    const i = args.indexOf(`--${k}`);
    return i >= 0 && args[i + 1] !== undefined ? [[k, Number(args[i + 1])]] : [];
  }),
);
/**
 * `--user-fp X`, `--tool-fp X` override a channel's target for other hands' rows, and
 * `--user-fp-templated X`, `--tool-fp-templated X` for the templated rows (for experiments).
 */
const flagValue = (name: string, fallback: number) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
const fpTarget = {
  user_input: {
    other: flagValue('--user-fp', FP_TARGET.user_input.other),
    templated: flagValue('--user-fp-templated', FP_TARGET.user_input.templated),
  },
  tool_output: {
    other: flagValue('--tool-fp', FP_TARGET.tool_output.other),
    templated: flagValue('--tool-fp-templated', FP_TARGET.tool_output.templated),
  },
};
/** `--no-thin-frames` counts every repeated frame of a writer in full (to measure frames.ts). */
const fitAll = (examples: readonly Example[]) =>
  fitChannels(examples, learnOverrides, fpTarget, !args.includes('--no-thin-frames'));
const OUT = resolve(ROOT, 'src/gates/input/model/injection-model.bin');

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

const logit = (p: number) => Math.log(p / (1 - p));

/**
 * Whether the model flags an example (review or block), as the scanner decides: a user input is
 * also flagged when one of its pasted parts reaches review as a tool output.
 */
export function flags(model: InjectionModel, e: Example): boolean {
  const ch = model.channels[e.row.channel as Channel];
  if (exampleLogit(ch, e) >= logit(DEFAULT_THRESHOLDS[e.row.channel as Channel].review)) return true;
  const tool = model.channels.tool_output;
  const cut = logit(DEFAULT_THRESHOLDS.tool_output.review);
  return e.pasted !== undefined && exampleLogit(tool, { ...e, windows: e.pasted }) >= cut;
}

export function countBy(model: InjectionModel, examples: readonly Example[], key: (e: Example) => string) {
  const out = new Map<string, Counts>();
  for (const e of examples) {
    const k = key(e);
    const c = out.get(k) ?? { tp: 0, fp: 0, fn: 0, tn: 0 };
    const f = flags(model, e);
    if (e.y === 1) f ? c.tp++ : c.fn++;
    else f ? c.fp++ : c.tn++;
    out.set(k, c);
  }
  return out;
}

const pct = (n: number, d: number) => (d === 0 ? null : Math.round((1000 * n) / d) / 10);
export const rates = (c: Counts) => ({
  n: c.tp + c.fp + c.fn + c.tn,
  recall: pct(c.tp, c.tp + c.fn),
  fpr: pct(c.fp, c.fp + c.tn),
});

/** FP caps of the targets, per channel. */
const CAP: Record<Channel, number> = { user_input: 0.02, tool_output: 0.03 };

/**
 * How well a model separates a set whatever its operating point: the recall it would have with
 * the cut placed on this set's own benign texts at the channel's FP cap, and the ROC AUC. An
 * oracle figure — it says what a better-placed cut could reach, not what ships.
 */
export function separability(model: InjectionModel, examples: readonly Example[], channel: Channel) {
  const ch = model.channels[channel];
  const pos = examples.filter((e) => e.y === 1).map((e) => exampleLogit(ch, e));
  const neg = examples
    .filter((e) => e.y === 0)
    .map((e) => exampleLogit(ch, e))
    .sort((a, b) => b - a);
  if (pos.length === 0 || neg.length === 0) return {};
  const cut = neg[Math.floor(neg.length * CAP[channel])]! + 1e-9;
  let auc = 0;
  for (const p of pos) for (const n of neg) auc += p > n ? 1 : p === n ? 0.5 : 0;
  return {
    recallAtCap: pct(pos.filter((z) => z >= cut).length, pos.length),
    auc: Math.round((1000 * auc) / (pos.length * neg.length)) / 1000,
  };
}

async function main() {
  const t0 = Date.now();
  const { rows, publicSources } = loadSources();
  const examples = toExamples(rows);
  const tVec = Date.now();
  const shipped = fitAll(examples);
  // measure what ships: the int8-quantised model
  const bytes = encodeInjectionModel(shipped.model);
  const model = decodeInjectionModel(bytes, 'trained');
  const calibration = examples.filter((e) => isCalibration(e.row));
  const summary: Record<string, unknown> = {
    rows: rows.length,
    vectorizeMs: tVec - t0,
    trainMs: Date.now() - tVec,
    cuts: shipped.cuts,
    modelSha256: createHash('sha256').update(bytes).digest('hex'),
    calibration: Object.fromEntries(
      [
        ...countBy(
          model,
          calibration,
          (e) =>
            `${e.row.channel}/${e.row.source === 'generated' || e.row.source === 'written' ? e.row.source : 'other'}`,
        ),
      ].map(([k, c]) => [k, rates(c)]),
    ),
  };
  if (args.includes('--loso')) {
    const loso: Record<string, unknown> = {};
    for (const source of publicSources) {
      const fold = fitAll(examples.filter((e) => e.row.source !== source));
      const test = examples.filter((e) => e.row.source === source);
      loso[source] = Object.fromEntries(
        [...countBy(fold.model, test, (e) => `${e.row.channel}/${e.row.subset ?? '-'}`)].map(([k, c]) => [
          k,
          rates(c),
        ]),
      );
      const total = countBy(fold.model, test, (e) => e.row.channel);
      for (const ch of CHANNELS)
        if (total.has(ch)) (loso[source] as Record<string, unknown>)[ch] = rates(total.get(ch)!);
      process.stderr.write(`loso ${source}: ${JSON.stringify(loso[source] as Record<string, unknown>)}\n`);
    }
    summary.loso = loso;
  }
  if (args.includes('--written-cv')) {
    const total = new Map<string, Counts>();
    for (let k = 0; k < WRITTEN_FOLDS; k++) {
      const inFold = (e: Example) => e.row.source === 'written' && writtenFold(e.row.id) === k;
      // nor any augmented row built from the fold
      const fromFold = (e: Example) => e.row.parents?.some((p) => writtenFold(p) === k) ?? false;
      const fold = fitAll(examples.filter((e) => !inFold(e) && !fromFold(e)));
      for (const [key, c] of countBy(fold.model, examples.filter(inFold), (e) => e.row.channel)) {
        const t = total.get(key) ?? { tp: 0, fp: 0, fn: 0, tn: 0 };
        total.set(key, { tp: t.tp + c.tp, fp: t.fp + c.fp, fn: t.fn + c.fn, tn: t.tn + c.tn });
      }
    }
    summary.writtenCv = Object.fromEntries([...total].map(([k, c]) => [k, rates(c)]));
  }
  if (args.includes('--hand-cv')) {
    const handOf = new Map(rows.filter((r) => r.source === 'written').map((r) => [r.id, r.hand ?? '-']));
    // `--hands a,b` holds out only those (for a quicker experiment)
    const only = args.includes('--hands')
      ? new Set(args[args.indexOf('--hands') + 1]!.split(','))
      : undefined;
    const hands = [...new Set(handOf.values())].sort().filter((h) => !only || only.has(h));
    const handCv: Record<string, unknown> = {};
    for (const hand of hands) {
      const mine = (e: Example) => e.row.source === 'written' && e.row.hand === hand;
      const fromMine = (e: Example) => e.row.parents?.some((p) => handOf.get(p) === hand) ?? false;
      const fold = fitAll(examples.filter((e) => !mine(e) && !fromMine(e)));
      if (args.includes('--show-hand-errors'))
        for (const e of examples.filter(mine))
          if (flags(fold.model, e) !== (e.y === 1))
            process.stderr.write(
              `${hand} ${e.row.channel} ${e.y === 1 ? 'missed' : 'false+'}: ${e.row.text.slice(0, 160).replace(/\n/g, ' ')}\n`,
            );
      handCv[hand] = Object.fromEntries(
        [...countBy(fold.model, examples.filter(mine), (e) => e.row.channel)].map(([k, c]) => [
          k,
          {
            ...rates(c),
            ...separability(
              fold.model,
              examples.filter((e) => mine(e) && e.row.channel === k),
              k as Channel,
            ),
          },
        ]),
      );
      process.stderr.write(`hand ${hand}: ${JSON.stringify(handCv[hand])}\n`);
    }
    summary.handCv = handCv;
  }
  if (!args.includes('--no-write')) writeFileSync(OUT, bytes);
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

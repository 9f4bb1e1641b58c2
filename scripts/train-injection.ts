/**
 * Trains the learned injection scorer and writes src/gates/input/model/injection-model.bin.
 *   npx tsx scripts/train-injection.ts [--no-write] [--loso] [--written-cv] [--json]
 * Sources and split: scripts/injection-training/data.ts. `--loso` also trains one model per
 * public source with that source left out and reports each source's figures from the model that
 * never saw it (that is what `npm run eval:safety` prints for the public set). `--written-cv`
 * cross-validates on the hand-written set (data/written/): five folds by id, each scored by a
 * model trained on everything but that fold. Prints one JSON summary line last.
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
import { fitChannels } from './injection-training/fit.js';
import { exampleLogit } from './injection-training/learn.js';
import { type Example, toExamples } from './injection-training/vectorize.js';

const args = process.argv.slice(2);
const OUT = resolve(ROOT, 'src/gates/input/model/injection-model.bin');

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

const logit = (p: number) => Math.log(p / (1 - p));

/** Whether the model flags an example (review or block). */
export function flags(model: InjectionModel, e: Example): boolean {
  const ch = model.channels[e.row.channel as Channel];
  return exampleLogit(ch, e) >= logit(DEFAULT_THRESHOLDS[e.row.channel as Channel].review);
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

async function main() {
  const t0 = Date.now();
  const { rows, publicSources } = loadSources();
  const examples = toExamples(rows);
  const tVec = Date.now();
  const shipped = fitChannels(examples);
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
      const fold = fitChannels(examples.filter((e) => e.row.source !== source));
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
      const fold = fitChannels(examples.filter((e) => !inFold(e) && !fromFold(e)));
      for (const [key, c] of countBy(fold.model, examples.filter(inFold), (e) => e.row.channel)) {
        const t = total.get(key) ?? { tp: 0, fp: 0, fn: 0, tn: 0 };
        total.set(key, { tp: t.tp + c.tp, fp: t.fp + c.fp, fn: t.fn + c.fn, tn: t.tn + c.tn });
      }
    }
    summary.writtenCv = Object.fromEntries([...total].map(([k, c]) => [k, rates(c)]));
  }
  if (!args.includes('--no-write')) writeFileSync(OUT, bytes);
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

/**
 * The injection scorer's training sources and its documented split (docs/gates.md "Learned
 * scorer"):
 * - `generated`: data/injection/corpus.generated.jsonl (scripts/generate-injection-data.ts);
 * - the public sets in ../shared/eval/prompt-injection.jsonl, by `source` — trained on only as the
 *   issue allows: every figure reported for a public source comes from a model trained without
 *   that source (leave-one-source-out), never from the shipped model;
 * - `twinline-zh`: test/fixtures/safety-zh.jsonl (this project's own Chinese set);
 * - `written`: data/written/injection-texts.jsonl (hand-written, not from templates:
 *   data/written/README.md) — hard benign texts and documents addressed to people beside
 *   attacks in wordings the templates do not produce;
 * - `written`, fitted only: data/written/fit-only/ (rounds 7, 8 and 15) — fitted on, never in
 *   the calibration split, so the cut is placed on the same rows as without them: in the split,
 *   round 7's and 8's honest look-alikes raised the cut and cost recall on three sealed sets
 *   (docs/gates.md "Rounds 8 to 11", "Rounds 12 to 15");
 * - `written-augmented`: the written rows set into each other (written-augment.ts), training only.
 * Never: eval/heldout/ or eval/sealed/ (measured only).
 *
 * Calibration split: 15% of generated template families (all their rows) and 30% of every other
 * source's rows but the fitted-only ones, chosen by hash, are kept out of fitting and used to
 * place the operating point.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadWrittenInjectionTexts } from '../written-sets.js';
import type { LabelledText } from './vectorize.js';
import { augmentWritten } from './written-augment.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const GENERATED = resolve(ROOT, 'data/injection/corpus.generated.jsonl');
/** The shared evaluation folder: beside the checkout (CI), or two levels up (a worktree in wt/). */
export const EVAL_DIR =
  [resolve(ROOT, '../shared/eval'), resolve(ROOT, '../../shared/eval')].find((d) => existsSync(d)) ??
  resolve(ROOT, '../shared/eval');
export const PUBLIC = resolve(EVAL_DIR, 'prompt-injection.jsonl');
/** Hand-written rows fitted on and never calibrated on (data/written/README.md "Fitted only"). */
export const FIT_ONLY = ['r7', 'r8', 'r15'].map((r) =>
  resolve(ROOT, `data/written/fit-only/injection-texts-${r}.jsonl`),
);
export const OWN_ZH = resolve(ROOT, 'test/fixtures/safety-zh.jsonl');

export function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T & { _generated?: string })
    .filter((r) => r._generated === undefined);
}

export function loadSources(publicPath = PUBLIC): { rows: LabelledText[]; publicSources: string[] } {
  const rows: LabelledText[] = readJsonl<LabelledText>(GENERATED).map((r) => ({ ...r, source: 'generated' }));
  const publicSources = new Set<string>();
  if (existsSync(publicPath)) {
    for (const r of readJsonl<LabelledText>(publicPath)) {
      rows.push(r);
      publicSources.add(r.source);
    }
  }
  if (existsSync(OWN_ZH))
    for (const r of readJsonl<LabelledText>(OWN_ZH)) rows.push({ ...r, source: 'twinline-zh' });
  const written: LabelledText[] = loadWrittenInjectionTexts().map((r) => ({ ...r, source: 'written' }));
  for (const f of FIT_ONLY)
    written.push(...loadWrittenInjectionTexts(f).map((r) => ({ ...r, source: 'written', fitOnly: true })));
  rows.push(...written, ...augmentWritten(written));
  return { rows, publicSources: [...publicSources].sort() };
}

function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0) % 100;
}

/** True for rows kept out of fitting to place the operating point. */
export function isCalibration(r: LabelledText): boolean {
  if (r.source === 'written-augmented' || r.fitOnly === true) return false;
  return r.source === 'generated' ? hash(`t:${r.template}`) < 15 : hash(`r:${r.source}:${r.id}`) < 30;
}

/** Cross-validation folds of the hand-written rows (`--written-cv`), by id. */
export const WRITTEN_FOLDS = 5;
export const writtenFold = (id: string): number => hash(`cv:${id}`) % WRITTEN_FOLDS;

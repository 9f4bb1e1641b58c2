/**
 * Fits the two channel models and places each one's operating point: the logit cut is the
 * smallest that keeps false positives on the calibration split's benign texts at or below the
 * channel's target (tighter than the 2% / 3%, so there is room for text unlike ours);
 * the bias is then shifted so the cut lands exactly on the scanner's review threshold
 * (src/gates/input/verdict.ts). A text scores `review` exactly when its worst window's logit
 * reaches the cut.
 */
import { CHANNELS, type Channel, DEFAULT_THRESHOLDS } from '../../src/gates/input/index.js';
import type { InjectionModel } from '../../src/gates/input/learned/model.js';
import { isCalibration } from './data.js';
import { frameWeights } from './frames.js';
import { DEFAULT_LEARN, exampleLogit, type LearnOptions, learn, type Trained } from './learn.js';
import type { Example } from './vectorize.js';

/** Benign false-positive rate allowed on each group of the calibration split. */
export interface CutTargets {
  /** our own templated rows (`generated`) */
  readonly templated: number;
  /** everyone else's: hand-written, public and fixture rows */
  readonly other: number;
}

/**
 * The targets per channel. Text by a writer the model never saw is flagged more often than the
 * calibration split's own, so the targets sit under the issue's caps of 2% and 3%. The group of
 * other hands' text is the one that says how new text will fare; the templated group is our own
 * hard-benign templates, and a target as tight on it bound the user-input cut alone: with rounds
 * 7 and 8 fitted on, the templated group's 1.8% held the cut where the other group sat at 0.8%,
 * and two sealed sets saw 1.7% and 0.3% false positives with recall left unused under the cap
 * (docs/gates.md "Rounds 12 to 15"). Tool output keeps 2% in both groups (docs/gates.md
 * "Rounds 5 and 6").
 */
export const FP_TARGET: Readonly<Record<Channel, CutTargets>> = {
  user_input: { templated: 0.04, other: 0.013 },
  tool_output: { templated: 0.02, other: 0.02 },
};

/**
 * The cut never drops below this logit (odds 3:1 of the balanced training): a calibration split
 * of our own text can be too easy to place it.
 */
const MIN_CUT = 1.1;

const logit = (p: number) => Math.log(p / (1 - p));

/**
 * Per-row weight of a training source: templated rows 1; public, fixture and hand-written rows 3
 * (fewer, and unlike the templates); hand-written rows set into each other 1 (each parent
 * already counts). Heavier written rows were tried (8, 15): cross-validated recall on them fell
 * — the scorer memorised their words instead of their shape.
 */
export function SOURCE_WEIGHT(source: string): number {
  if (source === 'generated' || source === 'written-augmented') return 1;
  return 3;
}

export interface Fitted {
  model: InjectionModel;
  cuts: Record<Channel, number>;
}

/** Per group of calibration rows (our own generated text; everyone else's), the cut that group needs; the highest wins. */
function chooseCut(trained: Trained, calibration: readonly Example[], target: CutTargets): number {
  let cut = MIN_CUT;
  for (const own of [true, false]) {
    const benign = calibration
      .filter((e) => e.y === 0 && (e.row.source === 'generated') === own)
      .map((e) => exampleLogit(trained, e))
      .sort((a, b) => b - a);
    if (benign.length === 0) continue;
    const allowed = Math.floor(benign.length * (own ? target.templated : target.other));
    // strictly above the (allowed+1)-th highest benign logit
    cut = Math.max(cut, benign[allowed]! + 1e-6);
  }
  return cut;
}

export function fitChannels(
  examples: readonly Example[],
  opts: Partial<LearnOptions> = {},
  fpTarget: Readonly<Record<Channel, CutTargets>> = FP_TARGET,
  /** count a writer's repeated user-input frames once-ish (frames.ts); off only to measure it */
  thinFrames = true,
): Fitted {
  const channels = {} as Record<Channel, { bias: number; weights: Float32Array; scale: number }>;
  const cuts = {} as Record<Channel, number>;
  for (const ch of CHANNELS) {
    const mine = examples.filter((e) => e.row.channel === ch);
    const train = mine.filter((e) => !isCalibration(e.row));
    const cal = mine.filter((e) => isCalibration(e.row));
    // public, fixture and hand-written rows are fewer and unlike the templates: weigh them up so
    // they count (docs/gates.md "Learned scorer")
    const frame = thinFrames ? frameWeights(train.map((e) => e.row)) : () => 1;
    const trained = learn(train, {
      ...DEFAULT_LEARN,
      ...opts,
      weightOf: (e) => SOURCE_WEIGHT(e.row.source) * frame(e.row),
    });
    const cut = chooseCut(trained, cal, fpTarget[ch]);
    cuts[ch] = cut;
    channels[ch] = {
      bias: trained.bias - cut + logit(DEFAULT_THRESHOLDS[ch].review),
      weights: trained.weights as Float32Array,
      scale: 1,
    };
  }
  return { model: { bits: 18, channels }, cuts };
}

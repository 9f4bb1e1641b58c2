import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FP_TARGET } from '../../scripts/injection-training/fit.js';
import { defaultInjectionModelPath } from '../../src/gates/input/learned/model.js';

describe('the shipped injection model', () => {
  // Retrains from the committed corpus (about 15 s) without writing, and checks that the
  // result is byte for byte the shipped file (training is seeded) and that the calibration
  // split — rows kept out of fitting — stays above the floors measured when it was built.
  it('is what the trainer makes from the committed data, above its calibration floors', () => {
    // the model was trained with the shared public sets (leave-one-source-out applies to the
    // figures, not to the shipped model): without them the retrain cannot match
    const shared = ['../shared/eval', '../../shared/eval'].map((d) => resolve(d, 'prompt-injection.jsonl'));
    if (!shared.some((f) => existsSync(f))) {
      console.warn(
        'shared/eval/prompt-injection.jsonl not found beside the checkout: skipping the retrain check',
      );
      return;
    }
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/train-injection.ts', '--no-write'],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const summary = JSON.parse(out.trim().split('\n').pop()!) as {
      modelSha256: string;
      calibration: Record<string, { recall: number; fpr: number }>;
    };
    const shipped = createHash('sha256').update(readFileSync(defaultInjectionModelPath()!)).digest('hex');
    expect(summary.modelSha256).toBe(shipped);
    expect(summary.calibration['user_input/generated']!.recall).toBeGreaterThanOrEqual(88);
    // the user-input cut is placed by other hands' text; the templated rows may reach their own
    // looser target (FP_TARGET in scripts/injection-training/fit.ts; measured 4.0% when built)
    expect(summary.calibration['user_input/generated']!.fpr).toBeLessThanOrEqual(
      100 * FP_TARGET.user_input.templated,
    );
    // the tool-output cut is placed by the hardest benign documents of the calibration split,
    // now including hand-written ones (data/written/): templated attacks pay for it in recall
    expect(summary.calibration['tool_output/generated']!.recall).toBeGreaterThanOrEqual(66);
    expect(summary.calibration['tool_output/generated']!.fpr).toBeLessThanOrEqual(1);
    // since round 4 the written split holds thirteen writers' texts, most documents beside a twin
    // that differs only in whom its directive addresses (data/written/README.md): measured 71.3%
    // and 60.8% at 0.4% and 1.4% false positives when the model was built
    expect(summary.calibration['user_input/written']!.recall).toBeGreaterThanOrEqual(68);
    expect(summary.calibration['tool_output/written']!.recall).toBeGreaterThanOrEqual(57);
    // and the honest twins of those texts stay clear
    expect(summary.calibration['user_input/written']!.fpr).toBeLessThanOrEqual(3);
    expect(summary.calibration['tool_output/written']!.fpr).toBeLessThanOrEqual(3);
  }, 300_000); // ~10 s alone; generous for a loaded machine
});

/**
 * Equivalence check for performance work on the input scanner and the PII finder: runs the
 * scanner as it was at a baseline git commit and as it is in the working tree on the same texts,
 * and fails on the first difference in verdict, score or findings (offsets, rule, reason).
 *
 *   npx tsx test/gates/scan-equivalence.script.ts <baseline-commit> [--eval-dir DIR]
 *
 * Texts: the eval corpora (measured only — nothing is copied out of them), our own fixtures, and
 * variants of each (upper-cased, spaced-out letters, base64-wrapped, repeated to long lengths) so
 * the normaliser, payload decoder and long-text windows are exercised too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { scanText as newScan } from '../../src/gates/input/scan.js';
import { findPii as newFindPii } from '../../src/gates/output/pii/find.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const baseline = args[0];
if (!baseline || baseline.startsWith('--')) {
  process.stderr.write('usage: scan-equivalence.script.ts <baseline-commit> [--eval-dir DIR]\n');
  process.exit(2);
}
const dirArg = args.indexOf('--eval-dir');
const evalDir = dirArg >= 0 ? resolve(args[dirArg + 1]!) : resolve(root, '../shared/eval');

const work = mkdtempSync(join(tmpdir(), 'scan-baseline-'));
try {
  const tar = execFileSync('git', ['archive', baseline, 'src/gates/input', 'src/gates/output/pii'], {
    cwd: root,
    maxBuffer: 64 << 20,
  });
  execFileSync('tar', ['-x', '-C', work], { input: tar });
  const oldScanMod = await import(pathToFileURL(join(work, 'src/gates/input/scan.ts')).href);
  const oldPiiMod = await import(pathToFileURL(join(work, 'src/gates/output/pii/find.ts')).href);
  const oldScan = oldScanMod.scanText as typeof newScan;
  const oldFindPii = oldPiiMod.findPii as typeof newFindPii;

  const texts: string[] = [];
  const readTexts = (file: string) => {
    if (!existsSync(file)) {
      process.stderr.write(`skipping missing ${file}\n`);
      return;
    }
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim()) texts.push((JSON.parse(line) as { text: string }).text);
    }
  };
  readTexts(join(evalDir, 'prompt-injection.jsonl'));
  readTexts(join(evalDir, 'pii-en.jsonl'));
  readTexts(join(root, 'test/fixtures/safety-zh.jsonl'));
  readTexts(join(root, 'test/fixtures/safety-pii-zh.jsonl'));
  const base = texts.length;

  const variants: string[] = [];
  for (let i = 0; i < base; i++) {
    const t = texts[i]!;
    variants.push(t.toUpperCase());
    variants.push(t.slice(0, 200).split('').join(' '));
    variants.push(`see ${Buffer.from(t.slice(0, 300)).toString('base64')} end`);
    variants.push(t.replace(/a/g, '\u0430').replace(/o/g, '\u200bo'));
  }
  // Long texts: corpus texts glued together so hits sit far apart (support windows, caps).
  for (let i = 0; i + 40 <= base; i += 40) variants.push(texts.slice(i, i + 40).join('\n'));
  for (let i = 0; i + 400 <= base; i += 400) variants.push(texts.slice(i, i + 400).join(' '));
  texts.push(...variants);

  let compared = 0;
  let flagged = 0;
  for (const text of texts) {
    for (const channel of ['user_input', 'tool_output'] as const) {
      const a = JSON.stringify(oldScan(text, { channel }));
      const b = JSON.stringify(newScan(text, { channel }));
      if (a !== b) {
        process.stderr.write(
          `SCAN DIFFERS (${channel}) on text of ${text.length} chars:\n${text.slice(0, 300)}\nold ${a}\nnew ${b}\n`,
        );
        process.exit(1);
      }
      if (!a.includes('"verdict":"pass"')) flagged++;
      compared++;
    }
    const pa = JSON.stringify(oldFindPii(text));
    const pb = JSON.stringify(newFindPii(text));
    if (pa !== pb) {
      process.stderr.write(
        `PII DIFFERS on text of ${text.length} chars:\n${text.slice(0, 300)}\nold ${pa}\nnew ${pb}\n`,
      );
      process.exit(1);
    }
  }
  process.stdout.write(
    `${JSON.stringify({ baseline, texts: texts.length, scans_compared: compared, flagged, pii_compared: texts.length, identical: true })}\n`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

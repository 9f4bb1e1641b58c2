import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { domainTrainingReport, readRouterModel, route, trainForDomain } from '../../src/router/index.js';

// A small other domain (a hospital's front desk) written here: the router trained on it must
// learn that domain's lines, and the CLI must write weights `route --model` can use.
const DEEP = [
  '分析过去三个月各科室的候诊时长并找出原因',
  '评估各病区的床位周转率，给出调整建议',
  'analyse no-show rates by clinic and propose fixes',
  'review readmissions across wards and write a report',
  '统计各医生的手术量趋势并对比同期',
  'investigate why lab turnaround got slower this quarter',
];
const QUICK = [
  '帮我挂明天上午的内科号',
  '取消我周五的复诊预约',
  'book a follow-up with Dr Li on Monday',
  'what time is my appointment tomorrow',
  '把我的体检改到下周三',
  'cancel my blood test booking',
];
const READ = [
  '你好',
  '谢谢',
  'hello there',
  'what is a normal blood pressure',
  '感冒了喝什么好',
  'thanks a lot',
];
function examples(): string {
  const rows: string[] = [];
  for (let k = 0; k < 4; k++) {
    for (const q of DEEP)
      rows.push(JSON.stringify({ query: k ? `${q}${'，尽快'.repeat(k % 2)}` : q, label: 'deep' }));
    for (const q of QUICK)
      rows.push(JSON.stringify({ text: k ? `${k % 2 ? '请' : ''}${q}` : q, label: 'quick' }));
    for (const q of READ)
      rows.push(JSON.stringify({ query: `${q}${k ? '!'.repeat(k) : ''}`, label: 'readonly_fallback' }));
  }
  return `${rows.join('\n')}\n`;
}
const dir = mkdtempSync(join(tmpdir(), 'twinline-router-train-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('router training for another domain', () => {
  it('trainForDomain reports a confusion matrix and a calibration curve on its test split', () => {
    const rows = examples()
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as { query?: string; text?: string; label: 'deep' | 'quick' | 'readonly_fallback' },
      )
      .map((r) => ({ query: (r.query ?? r.text)!, label: r.label }));
    const result = trainForDomain(rows, { seed: 3 });
    expect(result.split.test).toBeGreaterThan(0);
    const total = Object.values(result.confusion).reduce(
      (s, row) => s + Object.values(row).reduce((a, b) => a + b, 0),
      0,
    );
    expect(total).toBe(result.split.test);
    expect(result.calibration.reduce((s, b) => s + b.n, 0)).toBe(result.split.test);
    const html = domainTrainingReport(result, 'hospital.jsonl');
    expect(html).toContain('<svg');
    expect(html).toContain('Confusion matrix');
    expect(html).toContain('hospital.jsonl');
  });

  it('`twinline router train` writes weights and an HTML report; `route --model` uses them', () => {
    const file = join(dir, 'hospital.jsonl');
    writeFileSync(file, examples());
    const out = join(dir, 'model');
    const bin = resolve('bin/twinline.js');
    const summary = JSON.parse(
      execFileSync(process.execPath, [bin, 'router', 'train', '--examples', file, '--out', out, '--json'], {
        encoding: 'utf8',
      }),
    ) as { weights: string; report: string; accuracy: number };
    expect(readFileSync(summary.report, 'utf8')).toContain('Calibration curve');
    const model = readRouterModel(summary.weights);
    expect(route('取消我下周一的复诊预约', { model }).target).not.toBe('deep');
    const d = JSON.parse(
      execFileSync(
        process.execPath,
        [bin, 'route', '--json', '--model', summary.weights, '分析各科室的候诊时长并找出原因'],
        { encoding: 'utf8' },
      ),
    ) as { target: string };
    expect(['deep', 'readonly_fallback']).toContain(d.target);
  });

  it.each([
    ['{"query": "x", "label": "maybe"}', /label/],
    ['not json', /not JSON/],
    ['{"label": "deep"}', /query/],
    ['{"query": "分析一下", "label": "deep"}', /at least 10/],
  ])('refuses bad examples with an error naming the line: %s', (line, message) => {
    const file = join(dir, 'bad.jsonl');
    writeFileSync(file, `${line}\n`);
    const r = spawnSync(
      process.execPath,
      [resolve('bin/twinline.js'), 'router', 'train', '--examples', file, '--out', join(dir, 'x')],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(message);
  });
});

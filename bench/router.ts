/**
 * Router latency: per-decision wall time over the shipped labelled requests (rules + classifier
 * + threshold), after a warm-up. Target: p99 ≤ 100 µs. Also reports the one-off model load and
 * the process start of `twinline route` next to a bare node start.
 * Prints one JSON object on the last line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { route, shippedRouterModel } from '../src/router/index.js';

const queries = readFileSync('data/router/requests.generated.jsonl', 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { query?: string })
  .flatMap((r) => (typeof r.query === 'string' ? [r.query] : [])); // the first line is the generated file's header

const t0 = process.hrtime.bigint();
shippedRouterModel();
const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;

for (let i = 0; i < 3; i++) for (const q of queries) route(q);

const rounds = 5;
const samples = new Float64Array(queries.length * rounds);
let k = 0;
const started = process.hrtime.bigint();
for (let r = 0; r < rounds; r++) {
  for (const q of queries) {
    const a = process.hrtime.bigint();
    route(q);
    samples[k++] = Number(process.hrtime.bigint() - a) / 1000;
  }
}
const totalMs = Number(process.hrtime.bigint() - started) / 1e6;
samples.sort();
const q = (p: number) =>
  Number(samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]!.toFixed(2));
// Process start of `twinline route` (built bin) against a bare `node -e ""` on the same machine.
function medianSpawnMs(args: string[], n = 9): number {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = process.hrtime.bigint();
    spawnSync(process.execPath, args, { stdio: 'ignore' });
    times.push(Number(process.hrtime.bigint() - a) / 1e6);
  }
  times.sort((x, y) => x - y);
  return Number(times[Math.floor(n / 2)]!.toFixed(1));
}
const cli = existsSync('dist/cli/main.js')
  ? {
      cliRouteMedianMs: medianSpawnMs(['bin/twinline.js', 'route', '帮我把下午的会议推迟到四点', '--json']),
      nodeBaselineMedianMs: medianSpawnMs(['-e', '']),
    }
  : { cli: 'not built (npm run build)' };

const result = {
  decisions: samples.length,
  distinctRequests: queries.length,
  modelLoadMs: Number(loadMs.toFixed(2)),
  p50Us: q(0.5),
  p90Us: q(0.9),
  p99Us: q(0.99),
  maxUs: Number(samples[samples.length - 1]!.toFixed(2)),
  decisionsPerSec: Math.round(samples.length / (totalMs / 1000)),
  targetP99Us: 100,
  meetsTarget: q(0.99) <= 100,
  ...cli,
};
process.stdout.write(`${JSON.stringify(result)}\n`);

/**
 * Router latency: per-decision wall time over the shipped labelled requests (rules + classifier
 * + threshold), after a warm-up. Target: p99 ≤ 100 µs. Also reports the one-off model load.
 * Prints one JSON object on the last line.
 */
import { readFileSync } from 'node:fs';
import { route, shippedRouterModel } from '../src/router/index.js';

const queries = readFileSync('src/router/data/requests.jsonl', 'utf8')
  .trim()
  .split('\n')
  .map((l) => (JSON.parse(l) as { query: string }).query);

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
};
process.stdout.write(`${JSON.stringify(result)}\n`);

/**
 * Quick-line read cache: p50/p95 of whole quick-line requests (dispatcher → quick line → agent
 * loop with a scripted model → the quick line's gateway → cache → tool) when the backend of
 * `calendar_list` takes 300 ms (the real office tool behind a bench-only delay).
 *  - cold: every request reads a date range not read before, so each one reaches the backend;
 *  - warm: the same read repeated after one priming request, served from the cache (still
 *    decided and audited by the gateway).
 * Prints one JSON object on the last line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedProvider } from '../src/agent/index.js';
import { loadOfficeDomain } from '../src/config/index.js';
import { createPlatform } from '../src/platform/index.js';
import type { ToolSpec } from '../src/tools/index.js';

const BACKEND_DELAY_MS = 300;
const N = Number(process.env.BENCH_QUICK_N ?? 40);

const slow = (t: ToolSpec): ToolSpec =>
  t.name === 'calendar_list'
    ? {
        ...t,
        execute: async (args, ctx) => {
          await new Promise((r) => setTimeout(r, BACKEND_DELAY_MS));
          return t.execute(args, ctx);
        },
      }
    : t;

const dir = mkdtempSync(join(tmpdir(), 'twinline-bench-quick-'));
const base = loadOfficeDomain();
const platform = await createPlatform(
  {
    ...base,
    tools: { ...base.tools, options: { ...base.tools.options, dataDir: join(dir, 'office') } },
    store: { sqliteFile: join(dir, 'twinline.sqlite') },
  },
  { env: {}, quickQps: 100_000, wrapTool: slow },
);

const alice = platform.runtime.identities.resolve('alice', 'acme');
const day = (i: number) => new Date(Date.UTC(2026, 10, 2) + i * 86_400_000).toISOString().slice(0, 10);

async function request(from: string, to: string): Promise<number> {
  const provider = new ScriptedProvider([
    { tool_calls: [{ name: 'calendar_list', arguments: { from, to } }] },
    { text: 'Here is your calendar.' },
  ]);
  const t0 = performance.now();
  const r = await platform.handle(alice, '查一下我明天的日程', { provider });
  const ms = performance.now() - t0;
  if (r.route.target !== 'quick' || !r.executed.includes('calendar_list'))
    throw new Error(`request did not run on the quick line: ${r.outcome} ${r.text}`);
  return ms;
}

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]! * 10) / 10;
  return { n: s.length, p50: q(0.5), p95: q(0.95), max: q(1) };
}

try {
  await request(day(100), day(101)); // JIT and store warm-up, not measured
  const cold: number[] = [];
  for (let i = 0; i < N; i++) cold.push(await request(day(i), day(i + 1)));
  await request('2026-11-01', '2026-12-31');
  const warm: number[] = [];
  for (let i = 0; i < N; i++) warm.push(await request('2026-11-01', '2026-12-31'));
  const c = stats(cold);
  const w = stats(warm);
  console.log(
    JSON.stringify({
      backendDelayMs: BACKEND_DELAY_MS,
      tool: 'calendar_list',
      path: 'platform.handle → quick line → quick gateway → cache → tool',
      coldMs: c,
      warmMs: w,
      p95SpeedupX: Math.round((c.p95 / w.p95) * 10) / 10,
      cache: { hits: platform.cache.hits, misses: platform.cache.misses },
    }),
  );
} finally {
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
}

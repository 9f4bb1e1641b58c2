/**
 * `npm run bench`: runs every bench/*.ts in its own process (so one benchmark's heap and JIT state
 * cannot colour another's) and prints one JSON document: `{ "<name>": <that bench's JSON> }`.
 * A bench prints its result as a single JSON object on the last line of stdout.
 * `npm run bench -- gateway policy` runs only the named ones.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = new Set(process.argv.slice(2));
const names = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run-all.ts' && !f.startsWith('_'))
  .map((f) => f.slice(0, -3))
  .filter((n) => only.size === 0 || only.has(n))
  .sort();

const results: Record<string, unknown> = {};
for (const name of names) {
  process.stderr.write(`bench: ${name} …\n`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(here, `${name}.ts`)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const lines = run.stdout.trim().split('\n');
  const last = lines[lines.length - 1] ?? '';
  try {
    results[name] = JSON.parse(last);
  } catch {
    results[name] = { error: `exit ${run.status}; last line was not JSON`, tail: last.slice(0, 500) };
  }
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);

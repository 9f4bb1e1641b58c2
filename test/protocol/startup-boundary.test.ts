import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { packagesIn as packagesOf, sourceModules } from '../startup/module-trace.js';
import { assertBuilt, engineEnv, TWINLINE_BIN, workspace } from './sdk-harness.js';

/** Packages the stream-json mode must never load (issue "Start fast"). */
const HEAVY = [
  'pg',
  'ioredis',
  'nats',
  'quickjs-emscripten',
  '@cedar-policy/cedar-wasm',
  'openai',
  'autocannon',
  'playwright-core',
];

/** A module-load hook that reports every loaded file on stderr. */
function loadTracer(): string {
  const dir = mkdtempSync(join(tmpdir(), 'twinline-trace-'));
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    'export async function load(url, context, next) { process.stderr.write("LOADED " + url + "\\n"); return next(url, context); }\n',
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  return register;
}

/** Packages loaded, counting those inlined in a loaded file of the CLI bundle (dist/bundle). */
function packagesIn(trace: string): Set<string> {
  return packagesOf(sourceModules([...trace.matchAll(/LOADED (\S+)/g)].map((m) => m[1] as string)));
}

describe('stream-json mode boundaries', () => {
  beforeAll(assertBuilt);

  it('answers initialize loading no npm package, and runs a turn without the heavy ones or the store', async () => {
    const { dir, model } = workspace([{ text: 'hello' }]);
    const proc = spawn(
      process.execPath,
      [
        '--import',
        loadTracer(),
        TWINLINE_BIN,
        '--input-format',
        'stream-json',
        '--output-format',
        'stream-json',
        `--model=${model}`,
      ],
      { cwd: dir, env: engineEnv(), stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    let stdout = '';
    let atInitialize = '';
    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (c: string) => {
      stderr += c;
    });
    proc.stdout.setEncoding('utf8');
    const done = new Promise<number | null>((r) => proc.on('close', r));
    proc.stdout.on('data', (c: string) => {
      if (!stdout) atInitialize = stderr;
      stdout += c;
      if (stdout.includes('"type":"result"')) proc.stdin.end();
    });
    proc.stdin.write(
      `${JSON.stringify({ type: 'control_request', request_id: 'i', request: { subtype: 'initialize' } })}\n`,
    );
    // the prompt follows once initialize is answered, so the first trace is the initialize path alone
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (stdout) {
          clearInterval(check);
          resolve();
        }
      }, 5);
    });
    proc.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } })}\n`);
    expect(await done).toBe(0);
    // commander is the CLI entry's own static import; nothing else before initialize is answered
    expect([...packagesIn(atInitialize)].filter((p) => p !== 'commander')).toEqual([]);
    const all = packagesIn(stderr);
    for (const heavy of HEAVY) expect(all.has(heavy), heavy).toBe(false);
    expect(all.has('kysely'), 'the store opens only when something is audited').toBe(false);
    expect(stdout).toContain('"subtype":"success"');
  });
});

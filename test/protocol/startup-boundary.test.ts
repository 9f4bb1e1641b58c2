import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  loadedBeforeFirstOutput,
  loadedUrls,
  moduleTracer,
  packagesIn as packagesOf,
  sourceModules,
} from '../startup/module-trace.js';
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

/** Packages loaded per the trace file, counting those inlined in a file of the CLI bundle. */
function packagesIn(urls: readonly string[]): Set<string> {
  return packagesOf(sourceModules(urls));
}

describe('stream-json mode boundaries', () => {
  beforeAll(assertBuilt);

  it('answers initialize loading no npm package, and runs a turn without the heavy ones or the store', async () => {
    const { dir, model } = workspace([{ text: 'hello' }]);
    const tracer = moduleTracer();
    const proc = spawn(
      process.execPath,
      [
        '--import',
        tracer.register,
        TWINLINE_BIN,
        '--input-format',
        'stream-json',
        '--output-format',
        'stream-json',
        `--model=${model}`,
      ],
      { cwd: dir, env: engineEnv(tracer.env), stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    proc.stdout.setEncoding('utf8');
    const done = new Promise<number | null>((r) => proc.on('close', r));
    proc.stdout.on('data', (c: string) => {
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
    // What was loaded (or, in a one-shot bundle, run) before the initialize answer was written:
    // the tracer marks the first write, so a late read of the trace cannot blur the line.
    const atInitialize = loadedBeforeFirstOutput(tracer.file);
    expect(loadedUrls(tracer.file).length, 'the turn loaded more after the answer').toBeGreaterThan(
      atInitialize.length,
    );
    // commander is the CLI entry's own static import; nothing else before initialize is answered
    expect([...packagesIn(atInitialize)].filter((p) => p !== 'commander')).toEqual([]);
    const all = packagesIn(loadedUrls(tracer.file));
    expect(all.size, 'the trace saw the engine').toBeGreaterThan(0);
    for (const heavy of HEAVY) expect(all.has(heavy), heavy).toBe(false);
    expect(all.has('kysely'), 'the store opens only when something is audited').toBe(false);
    expect(stdout).toContain('"subtype":"success"');
  });
});

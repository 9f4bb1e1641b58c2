import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../protocol/sdk-harness.js';

/**
 * docs/own-domain.md, executed as printed: every fenced block whose info string names a file
 * (```js shop/tools.mjs) is written to a fresh project, and every `$ command` of a console block
 * runs there, its stdout compared with the lines the page prints under it.
 */
const DOC = resolve('docs/own-domain.md');
const ROOT = resolve('.');

interface Block {
  readonly lang: string;
  readonly file?: string;
  readonly body: string;
}

function blocks(markdown: string): Block[] {
  const out: Block[] = [];
  const re = /^```(\w+)(?: +(\S+))?\n([\s\S]*?)^```$/gm;
  for (const m of markdown.matchAll(re))
    out.push({ lang: m[1]!, ...(m[2] ? { file: m[2] } : {}), body: m[3]! });
  return out;
}

/** `$ command` lines and the output printed under each. */
function commands(console: string): { command: string; expected: string }[] {
  const out: { command: string; expected: string[] }[] = [];
  for (const line of console.replace(/\n$/, '').split('\n')) {
    if (line.startsWith('$ ')) out.push({ command: line.slice(2), expected: [] });
    else out.at(-1)?.expected.push(line);
  }
  return out.map((c) => ({ command: c.command, expected: c.expected.join('\n') }));
}

const page = readFileSync(DOC, 'utf8');
const all = blocks(page);
let project: string;

beforeAll(() => {
  assertBuilt();
  project = mkdtempSync(join(tmpdir(), 'twinline-own-domain-'));
  // the project's node_modules: twinline (this checkout, built) and zod, as `npm install twinline zod` gives
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, join(project, 'node_modules', 'twinline'));
  symlinkSync(join(ROOT, 'node_modules', 'zod'), join(project, 'node_modules', 'zod'));
  symlinkSync('../twinline/bin/twinline.js', join(project, 'node_modules', '.bin', 'twinline'));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'shop', private: true, type: 'module' }),
  );
  for (const b of all) {
    if (!b.file) continue;
    mkdirSync(dirname(join(project, b.file)), { recursive: true });
    writeFileSync(join(project, b.file), b.body);
  }
});
afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('docs/own-domain.md, as printed', () => {
  it('names every file the domain needs: tools module, users, roles, policies, config with lines and router rules', () => {
    const files = all.flatMap((b) => (b.file ? [b.file] : []));
    expect(files).toEqual(
      expect.arrayContaining([
        'shop/tools.mjs',
        'shop/users.yaml',
        'shop/roles.yaml',
        'shop/policies.yaml',
        'shop/twinline.config.yaml',
        'shop/try.mjs',
      ]),
    );
    const config = all.find((b) => b.file === 'shop/twinline.config.yaml')!.body;
    for (const section of [
      'lines:',
      'router:',
      'rules:',
      'prompts:',
      'readonly: { retrieval: help_search }',
    ]) {
      expect(config).toContain(section);
    }
  });

  const consoles = all.filter((b) => b.lang === 'console').flatMap((b) => commands(b.body));

  it('has the commands it shows', () => {
    expect(consoles.map((c) => c.command.split(' ').slice(0, 3).join(' '))).toEqual(
      expect.arrayContaining(['npx twinline route', 'npx twinline check', 'node shop/try.mjs']),
    );
  });

  it.each(consoles)('$ $command', ({ command, expected }) => {
    const r = spawnSync('bash', ['-c', command], {
      cwd: project,
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: `${join(project, 'node_modules', '.bin')}:${process.env.PATH}`,
        TWINLINE_MODEL: '',
        TWINLINE_CONFIG: '',
        TWINLINE_HOME: '',
        TWINLINE_DATABASE_URL: '',
      },
      timeout: 120_000,
    });
    expect(r.stdout.replace(/\n$/, ''), r.stderr).toBe(expected);
  });

  it('the refund request is the deep line’s by the shop’s rule, and the route says it came from rules alone', () => {
    const r = spawnSync(
      'bash',
      ['-c', 'npx twinline route --json --config shop/twinline.config.yaml "refund 100 on order A-1001"'],
      {
        cwd: project,
        encoding: 'utf8',
        env: { ...process.env, PATH: `${join(project, 'node_modules', '.bin')}:${process.env.PATH}` },
      },
    );
    expect(JSON.parse(r.stdout)).toMatchObject({
      target: 'deep',
      rule: 'shop.refund',
      routing: 'rules-only',
    });
    expect(r.stderr).toMatch(/no trained model is configured \(router\.weights\)/);
  });
});

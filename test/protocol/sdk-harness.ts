import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stripWatermark } from '../../src/gates/index.js';

/** The CLI entry the real SDKs spawn (`npm run build` first; `npm test` does it). */
export const TWINLINE_BIN = resolve(import.meta.dirname, '../../bin/twinline.js');

export function assertBuilt(): void {
  if (!existsSync(resolve(import.meta.dirname, '../../dist/cli/main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` before these tests');
  }
}

/** A fresh workspace folder with a scripted model file in it. */
export function workspace(script: unknown, name = 'script.json'): { dir: string; model: string } {
  const dir = mkdtempSync(join(tmpdir(), 'twinline-sdk-'));
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(script));
  return { dir, model: `scripted:${path}` };
}

export function writeScript(dir: string, name: string, script: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(script));
  return `scripted:${path}`;
}

export function fileText(dir: string, name: string): string | undefined {
  const p = join(dir, name);
  return existsSync(p) ? readFileSync(p, 'utf8') : undefined;
}

/** Environment for the engine: the local operator identity, a short permission timeout. */
export function engineEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  for (const k of [
    'TWINLINE_USER',
    'TWINLINE_TENANT',
    'TWINLINE_MODEL',
    'TWINLINE_CONFIG',
    'TWINLINE_DATABASE_URL',
  ]) {
    delete env[k];
  }
  return { ...env, ...extra };
}

/** A streaming prompt whose messages the test releases one at a time. */
export class PromptFeed<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiter: ((r: IteratorResult<T>) => void) | undefined;
  private ended = false;

  push(item: T): void {
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w({ value: item, done: false });
    } else this.items.push(item);
  }

  end(): void {
    this.ended = true;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const item = this.items.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((r) => {
          this.waiter = r;
        });
      },
    };
  }
}

/** Two write_file calls in one model turn, then a closing text. */
export function allowOneDenyOneScript(): unknown {
  return [
    {
      text: 'Writing two files.',
      tool_calls: [
        { id: 'toolu_allowed', name: 'write_file', arguments: { path: 'allowed.txt', content: 'written' } },
        {
          id: 'toolu_denied',
          name: 'write_file',
          arguments: { path: 'denied.txt', content: 'must not exist' },
        },
      ],
    },
    { text: 'Done.' },
  ];
}

/**
 * A home folder whose trusted-folders file trusts `dir`: pass `{ HOME }` in the engine's
 * environment so privileged modes (acceptEdits, auto, bypassPermissions) pass the trust gate.
 */
export function trustedHome(dir: string): { HOME: string } {
  const home = mkdtempSync(join(tmpdir(), 'twinline-home-'));
  mkdirSync(join(home, '.twinline'));
  writeFileSync(join(home, '.twinline', 'trustedFolders.json'), JSON.stringify({ [dir]: 'TRUST_FOLDER' }));
  return { HOME: home };
}

/** A home folder with no trusted folders: every workspace is untrusted. */
export function untrustedHome(): { HOME: string } {
  return { HOME: mkdtempSync(join(tmpdir(), 'twinline-home-')) };
}

/**
 * A message with every string's watermark characters removed: the engine's text leaves through
 * the egress gate, watermarked (test/gates and test/protocol/egress-doors test the mark itself).
 */
export function unmarked<T>(value: T): T {
  if (typeof value === 'string') return stripWatermark(value) as T;
  if (Array.isArray(value)) return value.map((v) => unmarked(v)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unmarked(v)])) as T;
  }
  return value;
}

import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelProvider } from '../../src/agent/index.js';
import { providerSource } from '../../src/platform/provider-source.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function scriptFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'twinline-provider-'));
  dirs.push(dir);
  const file = join(dir, 'model.json');
  writeFileSync(file, JSON.stringify([{ text }]));
  return file;
}

async function firstText(p: ModelProvider | undefined): Promise<string> {
  let text = '';
  for await (const d of p!.turn({
    system: '',
    messages: [],
    tools: [],
    signal: new AbortController().signal,
  } as never)) {
    if (d.type === 'text_delta') text += d.text;
  }
  return text;
}

describe('providerSource', () => {
  it('gives no provider without a model, and a fresh provider per call', async () => {
    expect(providerSource(undefined, {})()).toBeUndefined();
    const next = providerSource(`scripted:${scriptFile('one')}`, {});
    const a = next();
    const b = next();
    expect(a).not.toBe(b);
    expect(await firstText(a)).toBe('one');
    expect(await firstText(b)).toBe('one');
  });

  it('re-reads a file rewritten just now, even with the same size', async () => {
    const file = scriptFile('aaa');
    const next = providerSource(`scripted:${file}`, {});
    expect(await firstText(next())).toBe('aaa');
    writeFileSync(file, JSON.stringify([{ text: 'bbb' }]));
    expect(await firstText(next())).toBe('bbb');
  });

  it('keeps a settled file parsed while it is unchanged, and re-reads it once it changes', async () => {
    const file = scriptFile('old');
    // Whole seconds: a fractional millisecond time does not round-trip through utimes exactly.
    const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    utimesSync(file, past, past);
    const next = providerSource(`scripted:${file}`, {});
    expect(await firstText(next())).toBe('old');
    // Same size and mtime: the parsed script is reused (the file is not read again).
    writeFileSync(file, JSON.stringify([{ text: 'new' }]));
    utimesSync(file, past, past);
    expect(statSync(file).mtimeMs).toBe(past.getTime());
    expect(await firstText(next())).toBe('old');
    // A real rewrite moves the mtime: the new script is played.
    const later = new Date(Math.floor(Date.now() / 1000) * 1000 - 30_000);
    utimesSync(file, later, later);
    expect(await firstText(next())).toBe('new');
  });

  it('reports a broken script where the request asks for a model', () => {
    const next = providerSource(`scripted:${join(tmpdir(), 'twinline-missing-script.json')}`, {});
    expect(() => next()).toThrow(/scripted:/);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  completeTurn,
  createProvider,
  DEFAULT_RETRY_POLICY,
  isRetryableStatus,
  type ModelDelta,
  NoProviderError,
  OpenAICompatibleProvider,
  ProviderConfigError,
  parseProviderSpec,
  retryAfterMs,
  retryDelayMs,
  ScriptExhaustedError,
  ScriptedProvider,
} from '../../src/agent/index.js';

const dir = mkdtempSync(join(tmpdir(), 'twinline-providers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const req = (signal = new AbortController().signal) => ({ system: '', messages: [], tools: [], signal });

async function collect(it: AsyncIterable<ModelDelta>): Promise<ModelDelta[]> {
  const out: ModelDelta[] = [];
  for await (const d of it) out.push(d);
  return out;
}

describe('scripted provider', () => {
  it('plays turns in order, streaming text word by word, whatever it is sent', async () => {
    const p = new ScriptedProvider([
      { text: 'Hello there world' },
      { tool_calls: [{ name: 'record_delete', arguments: { id: 'all' } }] },
    ]);
    const first = await collect(p.turn(req()));
    expect(first.filter((d) => d.type === 'text_delta').map((d) => (d as { text: string }).text)).toEqual([
      'Hello ',
      'there ',
      'world',
    ]);
    const second = await completeTurn(p, req());
    expect(second.message.toolCalls).toEqual([
      { id: 'scripted_1_0', name: 'record_delete', arguments: { id: 'all' } },
    ]);
    await expect(completeTurn(p, req())).rejects.toBeInstanceOf(ScriptExhaustedError);
  });

  it('loads JSON and YAML files, with per-agent scripts', async () => {
    writeFileSync(join(dir, 's.json'), JSON.stringify([{ text: 'from json' }]));
    writeFileSync(
      join(dir, 's.yaml'),
      'turns:\n  - text: main\nagents:\n  helper:\n    - text: helper says hi\n',
    );
    expect((await completeTurn(ScriptedProvider.fromFile(join(dir, 's.json')), req())).message.text).toBe(
      'from json',
    );
    const y = ScriptedProvider.fromFile(join(dir, 's.yaml'));
    expect((await completeTurn(y, req())).message.text).toBe('main');
    expect((await completeTurn(y.forSubagent('helper'), req())).message.text).toBe('helper says hi');
    await expect(completeTurn(y.forSubagent('nobody'), req())).rejects.toBeInstanceOf(ScriptExhaustedError);
  });

  it.each([
    ['not a list', '{"turns": 3}'],
    ['unknown key', '[{"txt": "typo"}]'],
    ['bad JSON', '[{'],
  ])('refuses a bad script (%s) with a typed error naming the file', (_label, body) => {
    const file = join(dir, `bad-${_label.replace(/\W/g, '')}.json`);
    writeFileSync(file, body);
    expect(() => ScriptedProvider.fromFile(file)).toThrow(ProviderConfigError);
    expect(() => ScriptedProvider.fromFile(file)).toThrow(file);
  });

  it('a delayed turn is cancellable', async () => {
    const ac = new AbortController();
    const p = new ScriptedProvider([{ text: 'late', delay_ms: 60_000 }]);
    const pending = completeTurn(p, req(ac.signal));
    ac.abort();
    await expect(pending).rejects.toMatchObject({ code: 'agent.interrupted' });
  });
});

describe('createProvider', () => {
  it.each([
    ['scripted:/x/y.yaml', { kind: 'scripted', path: '/x/y.yaml' }],
    ['openai:gpt-4o-mini', { kind: 'openai', model: 'gpt-4o-mini' }],
    ['qwen-plus', { kind: 'openai', model: 'qwen-plus' }],
    ['  deepseek-chat ', { kind: 'openai', model: 'deepseek-chat' }],
  ])('parses %s', (spec, expected) => {
    expect(parseProviderSpec(spec)).toEqual(expected);
  });

  it.each(['', 'scripted:', 'openai:'])('refuses %j', (spec) => {
    expect(() => parseProviderSpec(spec)).toThrow(ProviderConfigError);
  });

  it('no model anywhere → NoProviderError (the degraded path), never a pretend provider', () => {
    expect(() => createProvider(undefined, {})).toThrow(NoProviderError);
    expect(() => createProvider({}, { TWINLINE_MODEL: '  ' })).toThrow(NoProviderError);
  });

  it('takes the model from TWINLINE_MODEL and the endpoint from the environment', () => {
    const p = createProvider(undefined, {
      TWINLINE_MODEL: 'qwen-plus',
      OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
    });
    expect(p).toBeInstanceOf(OpenAICompatibleProvider);
    expect(p.model).toBe('qwen-plus');
    expect(p.forSubagent?.('x')).toBe(p);
  });
});

describe('retry policy', () => {
  it.each([
    [408, true],
    [409, true],
    [429, true],
    [500, true],
    [503, true],
    [undefined, true],
    [400, false],
    [401, false],
    [404, false],
    [422, false],
  ])('status %s retryable: %s', (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });

  it('reads Retry-After as ms, seconds or an HTTP date', () => {
    const h = (m: Record<string, string>) => (n: string) => m[n];
    expect(retryAfterMs(h({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(h({ 'retry-after': '2' }))).toBe(2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(h({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(h({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(h({}))).toBeUndefined();
  });

  it('backoff stays within [50%, 100%] of the capped exponential step; server delays are capped', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.double({ min: 0, max: 0.999_999, noNaN: true }),
        (attempt, r) => {
          const step = Math.min(
            DEFAULT_RETRY_POLICY.maxDelayMs,
            DEFAULT_RETRY_POLICY.baseDelayMs * 2 ** (attempt - 1),
          );
          const d = retryDelayMs(DEFAULT_RETRY_POLICY, attempt, undefined, () => r);
          return d >= Math.floor(step * 0.5) && d <= step;
        },
      ),
      { numRuns: 500 },
    );
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, 10 * 60_000)).toBe(DEFAULT_RETRY_POLICY.maxDelayMs);
  });
});

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, logLevelFrom } from '../../src/telemetry/index.js';

function sink(): { lines: Record<string, unknown>[]; stream: Writable } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, stream };
}

describe('structured logs', () => {
  it.each([
    [{}, 'info'],
    [{ TWINLINE_LOG_LEVEL: 'debug' }, 'debug'],
    [{ TWINLINE_LOG_LEVEL: ' WARN ' }, 'warn'],
    [{ TWINLINE_LOG_LEVEL: 'silent' }, 'silent'],
  ])('TWINLINE_LOG_LEVEL %j → %s', (env, level) => {
    expect(logLevelFrom(env)).toBe(level);
  });

  it('an unknown level is an error naming the variable', () => {
    expect(() => logLevelFrom({ TWINLINE_LOG_LEVEL: 'loud' })).toThrow(
      /TWINLINE_LOG_LEVEL.*unknown log level "loud"/,
    );
  });

  it('writes JSON lines at the level asked, and never credentials or content, even if a caller passes them', async () => {
    const { lines, stream } = sink();
    const log = await createLogger({ level: 'info', destination: stream });
    log.debug({ requestId: 'r0' }, 'hidden');
    log.info(
      {
        requestId: 'r1',
        tenant: 'acme',
        route: 'quick',
        decision: 'executed',
        latencyMs: 3.2,
        authorization: 'Bearer tw-acme-alice-demo',
        apiKey: 'sk-live-1',
        arguments: { amount: 100 },
        call: { args: { note: 'secret note' }, token: 't' },
        query: '查一下华东区的客户名单',
        text: 'the answer',
      },
      'request',
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      service: 'twinline',
      msg: 'request',
      requestId: 'r1',
      tenant: 'acme',
      route: 'quick',
      decision: 'executed',
      latencyMs: 3.2,
    });
    const text = JSON.stringify(lines);
    for (const secret of [
      'tw-acme-alice-demo',
      'sk-live-1',
      'secret note',
      '"t"',
      '华东区',
      'the answer',
      '"amount"',
    ])
      expect(text).not.toContain(secret);
    expect(typeof lines[0]!.time).toBe('string');
  });
});

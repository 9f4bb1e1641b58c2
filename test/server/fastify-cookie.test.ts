import { createRequire } from 'node:module';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

/**
 * `cookie` is pinned (package.json `overrides`) to a version that supports the Node the package
 * declares; Fastify's `inject` (light-my-request) is what uses it. It must still work.
 */
describe('fastify with the pinned cookie', () => {
  it('light-my-request resolves the Node 20 cookie, and inject round-trips set-cookie headers', async () => {
    const req = createRequire(createRequire(import.meta.url).resolve('fastify'));
    const lmr = createRequire(req.resolve('light-my-request'));
    const cookie = lmr('cookie/package.json') as { version: string; engines: { node: string } };
    expect(cookie.version).toBe('1.1.1');
    expect(cookie.engines.node).toBe('>=18');

    const app = Fastify();
    app.get('/', async (_req, reply) => {
      reply.header('set-cookie', ['a=1; Path=/; HttpOnly', 'b=two; Max-Age=60']);
      return { ok: true };
    });
    const res = await app.inject({ method: 'GET', url: '/', cookies: { sent: 'yes' } });
    expect(res.json()).toEqual({ ok: true });
    expect(res.cookies.map((c) => [c.name, c.value])).toEqual([
      ['a', '1'],
      ['b', 'two'],
    ]);
    await app.close();
  });
});

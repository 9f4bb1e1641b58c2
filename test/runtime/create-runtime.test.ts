import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOfficeDomain, type TwinlineConfig } from '../../src/config/index.js';
import { TwinlineError } from '../../src/core/index.js';
import { createRuntime, IdentityDirectory } from '../../src/runtime/index.js';
import { createTestDatabase } from '../store/postgres-test-database.js';

const dir = mkdtempSync(join(tmpdir(), 'twinline-runtime-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The office config with its state moved into this test's folder. */
function officeConfig(): TwinlineConfig {
  const office = loadOfficeDomain();
  return {
    ...office,
    tools: { ...office.tools, options: { dataDir: join(dir, 'office') } },
    store: { sqliteFile: join(dir, 'twinline.sqlite') },
  };
}

describe('createRuntime', () => {
  it('registers the office tools, opens the store, runs and audits calls', async () => {
    const rt = await createRuntime(officeConfig(), { env: {} });
    try {
      expect(rt.registry.size).toBe(14);
      expect(rt.store?.dialect).toBe('sqlite');
      const identity = rt.identities.resolve('alice', 'acme');
      const r = await rt.gateway.invoke(
        { id: 'rt-1', name: 'calendar_list', arguments: { from: '2026-11-02', to: '2026-11-06' } },
        { identity, sessionId: 'rt' },
      );
      expect(r.status).toBe('executed');
      await rt.store!.audit.flush();
      const records = await rt.store!.audit.query({ user: 'alice', limit: 10 });
      expect(records.map((x) => x.callId)).toContain('rt-1');
    } finally {
      await rt.close();
    }
  });

  it('a dry-run runtime checks but refuses to invoke', async () => {
    const rt = await createRuntime(officeConfig(), { store: false });
    try {
      const identity = rt.identities.resolve('carol');
      const call = { id: 'rt-2', name: 'billing_report_query', arguments: { period: '2026-11' } };
      expect((await rt.gateway.check(call, { identity, sessionId: 'rt' })).verdict).toBe('review');
      await expect(rt.gateway.invoke(call, { identity, sessionId: 'rt' })).rejects.toMatchObject({
        code: 'gateway.dry-run-only',
      });
    } finally {
      await rt.close();
    }
  });

  it('TWINLINE_DATABASE_URL selects PostgreSQL', async (ctx) => {
    // A database of its own: the shared one may hold another branch's migrations.
    const database = await createTestDatabase();
    if (!database) return ctx.skip();
    const rt = await createRuntime(officeConfig(), { env: { TWINLINE_DATABASE_URL: database.url } }).catch(
      async (err: unknown) => {
        await database.drop();
        throw err;
      },
    );
    try {
      expect(rt.store?.dialect).toBe('postgres');
      const identity = rt.identities.resolve('gina', 'globex');
      const id = `rt-pg-${Date.now()}`;
      const r = await rt.gateway.invoke(
        { id, name: 'billing_report_query', arguments: { period: '2026-11' } },
        { identity, sessionId: id },
      );
      expect(r.status).toBe('review');
      expect((await rt.store!.reviews.get(r.reviewId!))?.tenant).toBe('globex');
      await rt.store!.audit.flush();
      const records = await rt.store!.audit.query({
        tenant: 'globex',
        tool: 'billing_report_query',
        limit: 1000,
      });
      expect(records.some((x) => x.callId === id)).toBe(true);
    } finally {
      await rt.close();
      await database.drop();
    }
  });
});

describe('IdentityDirectory', () => {
  const dirOf = new IdentityDirectory([
    { tenant: 'a', user: 'sam', roles: [], dataLevel: 'L1', attributes: {} },
    { tenant: 'b', user: 'sam', roles: [], dataLevel: 'L2', attributes: {} },
    { tenant: 'b', user: 'kim', roles: [], dataLevel: 'L2', attributes: {} },
  ]);

  it('resolves by tenant and user, or by a unique user name', () => {
    expect(dirOf.resolve('sam', 'b').dataLevel).toBe('L2');
    expect(dirOf.resolve('kim').tenant).toBe('b');
  });

  it.each([
    ['sam', undefined, 'identity.ambiguous-user'],
    ['zed', undefined, 'identity.unknown-user'],
    ['kim', 'a', 'identity.unknown-user'],
  ])('%s in %s: %s', (user, tenant, code) => {
    try {
      dirOf.resolve(user, tenant);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(TwinlineError);
      expect((err as TwinlineError).code).toBe(code);
      expect((err as TwinlineError).message).toContain(user);
    }
  });
});

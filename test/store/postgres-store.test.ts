import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../../src/core/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { createTestDatabase } from './postgres-test-database.js';
import { defineStoreContract } from './store-contract.js';

const database = await createTestDatabase();

if (database) {
  defineStoreContract('postgres', async () => ({ options: { url: database.url }, cleanup: async () => {} }));

  describe('postgres audit writer when the server drops its connections', () => {
    let store: Store;
    beforeAll(async () => {
      store = await openStore({ url: database.url, audit: { minBackoffMs: 5, maxBackoffMs: 40 } });
    });
    afterAll(async () => {
      await store.close();
      await database.drop();
    });

    it('loses no record when every backend is terminated mid-stream', async () => {
      const tenant = `t-${randomUUID()}`;
      const name = new URL(database.url).pathname.slice(1);
      for (let round = 0; round < 4; round++) {
        for (let i = 0; i < 500; i++) {
          store.audit.record({
            id: randomUUID(),
            time: new Date().toISOString(),
            tenant,
            user: 'u',
            sessionId: 's',
            agent: 'main',
            domain: 'quick',
            tool: 'x',
            callId: String(i),
            argsHash: 'h',
            status: 'executed',
            decisionPath: [decide('allow', 'policy', 'ok', 'ok')],
            resultSummary: 'ok',
            durationMs: 1,
          });
        }
        await database.adminQuery(
          `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
        );
      }
      await store.audit.flush();
      const rows = await store.audit.query({ tenant, limit: 10_000 });
      expect(rows).toHaveLength(2000);
      expect(store.audit.stats().dropped).toBe(0);
    });
  });
} else {
  describe('store contract (postgres)', () => {
    it('reports that PostgreSQL is absent', () => {
      console.warn('[test/store] PostgreSQL store contract not run: no server at 127.0.0.1:5432');
    });
  });
}

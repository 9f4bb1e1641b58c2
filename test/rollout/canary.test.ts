import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { OFFICE_CONFIG_PATH } from '../../src/config/index.js';
import {
  CanaryError,
  CanaryService,
  decideRollback,
  inCanary,
  resolveConfigVersion,
  userBucket,
} from '../../src/rollout/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { brokenOfficeConfig } from '../eval/broken-office.js';
import { createTestDatabase } from '../store/postgres-test-database.js';

const users = Array.from({ length: 10_000 }, (_, i) => ({
  tenant: i % 3 === 0 ? 'globex' : 'acme',
  user: `user-${i}`,
}));

describe('canary assignment', () => {
  it('is stable: the same tenant+user always gets the same bucket', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (tenant, user) => {
        const b = userBucket(tenant, user);
        expect(b).toBe(userBucket(tenant, user));
        expect(b).toBeGreaterThanOrEqual(0);
        expect(b).toBeLessThan(10_000);
      }),
      { numRuns: 300 },
    );
  });

  it.each([1, 5, 10, 25, 50, 90])('puts %d%% of 10,000 users in the canary (±1.5 points)', (percent) => {
    const share =
      (users.filter((u) => inCanary(u.tenant, u.user, percent * 100)).length / users.length) * 100;
    expect(Math.abs(share - percent)).toBeLessThanOrEqual(1.5);
  });

  it('only adds users when the percentage rises', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.string(),
        (a, b, user) => {
          const [lo, hi] = a < b ? [a, b] : [b, a];
          if (inCanary('acme', user, lo)) expect(inCanary('acme', user, hi)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('rollback decision', () => {
  it.each([
    [{ total: 100, passed: 100, misuse: 1 }, { total: 100, passed: 100, misuse: 0 }, true, /misuse/],
    [{ total: 100, passed: 97, misuse: 0 }, { total: 100, passed: 100, misuse: 0 }, true, /below stable/],
    [{ total: 100, passed: 99, misuse: 0 }, { total: 100, passed: 100, misuse: 0 }, false, /within/],
    [{ total: 100, passed: 90, misuse: 0 }, undefined, true, /below 98/],
    [{ total: 100, passed: 99, misuse: 0 }, undefined, false, /within/],
    [{ total: 0, passed: 0, misuse: 0 }, undefined, false, /samples/],
  ] as const)('canary %j vs stable %j → rollback %s', (canary, stable, rollback, reason) => {
    const d = decideRollback(canary, stable);
    expect(d.rollback).toBe(rollback);
    expect(d.reason).toMatch(reason);
  });
});

async function rolloutScenario(store: Store) {
  const bad = brokenOfficeConfig();
  let clock = Date.parse('2026-11-30T00:00:00Z');
  const canary = new CanaryService(store, () => {
    clock += 1000;
    return new Date(clock);
  });
  try {
    // v1 becomes stable for everyone.
    await canary.start({ version: 'v1', config: OFFICE_CONFIG_PATH, percent: 100 });
    await canary.promote();
    const promoted = await canary.snapshot();
    for (const u of users) expect(promoted.resolve(u.tenant, u.user)?.version).toBe('v1');
    // v2 to 20 %: exactly the users whose bucket is under 2000 get it.
    await canary.start({ version: 'v2', config: bad.configFile, percent: 20, label: 'broken policy' });
    await expect(canary.start({ version: 'v3', config: OFFICE_CONFIG_PATH, percent: 5 })).rejects.toThrow(
      CanaryError,
    );
    const during = await canary.snapshot();
    let onCanary = 0;
    for (const u of users) {
      const expected = userBucket(u.tenant, u.user) < 2000 ? 'v2' : 'v1';
      expect(during.resolve(u.tenant, u.user)?.version).toBe(expected);
      if (expected === 'v2') onCanary++;
    }
    expect(Math.abs((onCanary / users.length) * 100 - 20)).toBeLessThanOrEqual(1.5);
    // The per-request resolver agrees with the snapshot.
    for (const u of users.slice(0, 50)) {
      expect((await resolveConfigVersion(store, u.tenant, u.user))?.version).toBe(
        during.resolve(u.tenant, u.user)?.version,
      );
    }
    // Misuse measured on the canary rolls it back automatically.
    await canary.recordMetrics('v1', { total: 178, passed: 178, misuse: 0 });
    await canary.recordMetrics('v2', { total: 178, passed: 170, misuse: 6 });
    const verdict = await canary.checkAutoRollback();
    expect(verdict.rolledBack).toBe(true);
    expect(verdict.reason).toMatch(/misuse/);
    // Every user is back on the previous version.
    const after = await canary.snapshot();
    for (const u of users) expect(after.resolve(u.tenant, u.user)?.version).toBe('v1');
    for (const u of users.slice(0, 50))
      expect((await canary.resolveConfigVersion(u.tenant, u.user))?.version).toBe('v1');
    const status = await canary.status();
    expect(status.rollout).toBeUndefined();
    expect(status.stable?.version).toBe('v1');
    expect(status.history[0]?.status).toBe('rolled_back');
    // A version name is bound to its content.
    await expect(canary.registerVersion('v1', bad.configFile)).rejects.toThrow(/different content/);
  } finally {
    bad.cleanup();
  }
}

describe('canary service on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'twinline-canary-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rolls out by stable hash, rolls back automatically on misuse, restores the previous version for every user', async () => {
    const store = await openStore({ sqliteFile: join(dir, 'c.sqlite'), env: {} });
    try {
      await rolloutScenario(store);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('withdraws a promotion when nothing is running', async () => {
    const store = await openStore({ sqliteFile: join(dir, 'd.sqlite'), env: {} });
    try {
      const canary = new CanaryService(store);
      await canary.start({ version: 'a', config: OFFICE_CONFIG_PATH, percent: 100 });
      await canary.promote();
      const bad = brokenOfficeConfig();
      await canary.start({ version: 'b', config: bad.configFile, percent: 50 });
      await canary.promote();
      bad.cleanup();
      expect(await canary.stableVersion()).toBe('b');
      await canary.rollback('bad release');
      expect(await canary.stableVersion()).toBe('a');
      const snap = await canary.snapshot();
      for (const u of users) expect(snap.resolve(u.tenant, u.user)?.version).toBe('a');
    } finally {
      await store.close();
    }
  });
});

describe('canary service on PostgreSQL', async () => {
  const db = await createTestDatabase();
  afterAll(async () => db?.drop());
  it.runIf(db !== undefined)(
    'behaves as on SQLite',
    async () => {
      const store = await openStore({ url: db!.url });
      try {
        await rolloutScenario(store);
      } finally {
        await store.close();
      }
    },
    60_000,
  );
});

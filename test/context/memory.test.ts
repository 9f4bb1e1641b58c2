import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkPreferenceWrite,
  createMemory,
  PREFERENCE_VALUES,
  PreferenceRejectedError,
  UserPreferencesSchema,
} from '../../src/context/index.js';
import { openStore } from '../../src/store/index.js';
import { createTestDatabase } from '../store/postgres-test-database.js';

describe('working memory', () => {
  it('is scoped per task and dropped with it', () => {
    const { working } = createMemory();
    const a = working.forTask('task-a');
    const b = working.forTask('task-b');
    a.set('step', 3);
    expect(a.get('step')).toBe(3);
    expect(b.get('step')).toBeUndefined();
    expect(working.forTask('task-a').get('step')).toBe(3);
    working.drop('task-a');
    expect(working.forTask('task-a').get('step')).toBeUndefined();
  });
});

describe('user preferences: writes are checked', () => {
  const smuggling: ReadonlyArray<readonly [string, string, unknown]> = [
    ['an unknown key', 'lastCustomerEmail', 'li.wei@example.com'],
    ['a free-text key', 'note', 'salary of Li is 30000'],
    ['a value outside the enumeration', 'outputFormat', 'csv'],
    ['data appended to an allowed value', 'outputFormat', 'table; salary=30000'],
    ['an object value', 'riskAlerts', { on: true, rows: [1, 2] }],
    ['an array value', 'language', ['zh', 'en']],
    ['a number', 'verbosity', 3],
    ['a prototype key', '__proto__', 'on'],
    ['a case variant', 'OutputFormat', 'table'],
    ['a padded value', 'riskAlerts', ' on'],
  ];

  it.each(smuggling)('rejects %s', async (_name, key, value) => {
    const { preferences } = createMemory();
    await expect(preferences.set('acme', 'u1', key, value, { line: 'deep' })).rejects.toBeInstanceOf(
      PreferenceRejectedError,
    );
    expect(await preferences.get('acme', 'u1')).toEqual({});
  });

  it('accepts whitelisted keys with enumerated values, shared across lines', async () => {
    const { preferences } = createMemory();
    await preferences.set('acme', 'u1', 'outputFormat', 'table', { line: 'quick' });
    await preferences.set('acme', 'u1', 'riskAlerts', 'on', { line: 'deep' });
    expect(await preferences.get('acme', 'u1')).toEqual({ outputFormat: 'table', riskAlerts: 'on' });
    expect(await preferences.get('acme', 'u2')).toEqual({});
    expect(await preferences.get('globex', 'u1')).toEqual({});
  });

  it('property: only (whitelisted key, enumerated value) pairs are ever accepted', () => {
    const keys = Object.keys(PREFERENCE_VALUES);
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(...keys), fc.string()),
        fc.oneof(fc.string(), fc.jsonValue()),
        (k, v) => {
          let accepted = true;
          try {
            checkPreferenceWrite(k, v);
          } catch (e) {
            expect(e).toBeInstanceOf(PreferenceRejectedError);
            accepted = false;
          }
          const allowed =
            Object.hasOwn(PREFERENCE_VALUES, k) &&
            (PREFERENCE_VALUES as Record<string, readonly unknown[]>)[k]!.includes(v);
          expect(accepted).toBe(allowed);
          if (accepted) expect(UserPreferencesSchema.safeParse({ [k]: v }).success).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('user preferences persisted in the store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'twinline-prefs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('SQLite: survives reopening, ignores rows written around the check', async () => {
    const file = join(dir, 'prefs.sqlite');
    let store = await openStore({ sqliteFile: file });
    await createMemory({ db: store.db }).preferences.set('acme', 'u1', 'outputFormat', 'table', {
      line: 'quick',
    });
    await createMemory({ db: store.db }).preferences.set('acme', 'u1', 'outputFormat', 'text', {
      line: 'deep',
    });
    // a row that bypassed the check (e.g. written by hand) is not served to lines
    await (
      store.db as unknown as {
        insertInto: (t: string) => { values: (v: object) => { execute: () => Promise<unknown> } };
      }
    )
      .insertInto('user_preferences')
      .values({
        tenant: 'acme',
        user_id: 'u1',
        key: 'note',
        value: 'salary=30000',
        updated_by: 'x',
        updated_at: 'now',
      })
      .execute();
    await store.close();
    store = await openStore({ sqliteFile: file });
    expect(await createMemory({ db: store.db }).preferences.get('acme', 'u1')).toEqual({
      outputFormat: 'text',
    });
    await store.close();
  });

  it('PostgreSQL: same behaviour', async () => {
    const pg = await createTestDatabase();
    if (!pg) return; // createTestDatabase printed why
    const store = await openStore({ url: pg.url });
    try {
      const { preferences } = createMemory({ db: store.db });
      await preferences.set('acme', 'u1', 'riskAlerts', 'off', { line: 'deep' });
      await preferences.set('acme', 'u1', 'riskAlerts', 'on', { line: 'quick' });
      expect(await preferences.get('acme', 'u1')).toEqual({ riskAlerts: 'on' });
      await expect(
        preferences.set('acme', 'u1', 'riskAlerts', 'maybe', { line: 'quick' }),
      ).rejects.toBeInstanceOf(PreferenceRejectedError);
    } finally {
      await store.close();
      await pg.drop();
    }
  });
});

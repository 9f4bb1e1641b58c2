import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, resolveStoreTarget } from '../../src/store/index.js';

describe('resolveStoreTarget', () => {
  const cwd = '/srv/app';
  it.each([
    [{}, { dialect: 'sqlite', file: '/srv/app/.twinline/twinline.sqlite' }],
    [{ sqliteFile: 'data/x.db' }, { dialect: 'sqlite', file: '/srv/app/data/x.db' }],
    [{ sqliteFile: ':memory:' }, { dialect: 'sqlite', file: ':memory:' }],
    [{ url: 'postgres://u@h/db' }, { dialect: 'postgres', url: 'postgres://u@h/db' }],
    [{ url: 'postgresql://u@h/db' }, { dialect: 'postgres', url: 'postgresql://u@h/db' }],
    [{ url: 'sqlite:/tmp/a.sqlite' }, { dialect: 'sqlite', file: '/tmp/a.sqlite' }],
    [
      { env: { TWINLINE_DATABASE_URL: 'postgres://e@h/db' } },
      { dialect: 'postgres', url: 'postgres://e@h/db' },
    ],
    [
      { url: 'postgres://o@h/db', env: { TWINLINE_DATABASE_URL: 'postgres://e@h/db' } },
      { dialect: 'postgres', url: 'postgres://o@h/db' },
    ],
    [
      { sqliteFile: 'x.sqlite', env: { TWINLINE_DATABASE_URL: 'postgres://e@h/db' } },
      { dialect: 'sqlite', file: '/srv/app/x.sqlite' },
    ],
  ] as const)('%j → %j', (options, expected) => {
    expect(resolveStoreTarget({ env: {}, ...options }, cwd)).toEqual(expected);
  });
});

describe('migrations', () => {
  it('registers every migration file in order, with unique numbered names', () => {
    const dir = join(import.meta.dirname, '../../src/store/migrations');
    const files = readdirSync(dir)
      .filter((f) => /^\d{3}_.+\.ts$/.test(f))
      .map((f) => f.slice(0, -3))
      .sort();
    expect(MIGRATIONS.map((m) => m.name)).toEqual(files);
  });
});

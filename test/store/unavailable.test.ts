import { describe, expect, it } from 'vitest';
import { isStoreUnavailable, StoreError } from '../../src/store/index.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isStoreUnavailable', () => {
  it.each([
    ['connection refused', withCode('ECONNREFUSED'), true],
    ['connection reset', withCode('ECONNRESET'), true],
    [
      'PostgreSQL shutting down (57P01)',
      withCode('57P01', 'terminating connection due to administrator command'),
      true,
    ],
    ['PostgreSQL starting up (57P03)', withCode('57P03', 'the database system is starting up'), true],
    ['connection exception class 08', withCode('08006'), true],
    ['too many connections (53300)', withCode('53300'), true],
    ['SQLite busy', withCode('SQLITE_BUSY'), true],
    ['node-postgres lost its connection', new Error('Connection terminated unexpectedly'), true],
    [
      'refused on every address',
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]),
      true,
    ],
    [
      'wrapped in a store error',
      new StoreError('store.query', 'query failed', { cause: withCode('ECONNREFUSED') }),
      true,
    ],
    ['syntax error (42601)', withCode('42601', 'syntax error at or near'), false],
    ['unique violation (23505)', withCode('23505'), false],
    ['SQLite constraint', withCode('SQLITE_CONSTRAINT_UNIQUE'), false],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')"), false],
    ['not an error', 'ECONNREFUSED', false],
    ['nothing', undefined, false],
  ])('%s → %s', (_name, err, expected) => {
    expect(isStoreUnavailable(err)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseInput } from '../../src/server/errors.js';
import { BadRequestError } from '../../src/server/index.js';

describe('parseInput', () => {
  it('names the bad field once, in the message and as the field', () => {
    const schema = z.strictObject({ query: z.string() });
    let caught: unknown;
    try {
      parseInput(schema, { qurey: 'hi' }, 'body');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(BadRequestError);
    const err = caught as BadRequestError;
    expect(err.where).toBe('body.query');
    expect(err.message.startsWith('body.query: ')).toBe(true);
    expect(err.message.indexOf('body.query')).toBe(err.message.lastIndexOf('body.query'));
  });

  it('returns the parsed value when it is valid', () => {
    expect(parseInput(z.object({ limit: z.coerce.number() }), { limit: '5' }, 'query')).toEqual({ limit: 5 });
  });
});

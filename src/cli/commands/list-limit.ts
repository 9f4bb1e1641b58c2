import { TwinlineError } from '../../core/index.js';

/** The largest `--limit` a list command accepts. */
const MAX_LIST_LIMIT = 10_000;

/** `--limit` of `audit`, `reviews list` and `tasks list`: an integer 1..10000, or a usage error. */
export function listLimit(raw: string): number {
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw new TwinlineError('cli.bad-limit', `expected an integer 1..10000, got ${JSON.stringify(raw)}`, {
      where: '--limit',
    });
  }
  return limit;
}

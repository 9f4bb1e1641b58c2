/** Socket-level failures of a database connection (Node system error codes). */
const CONNECTION_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/**
 * PostgreSQL SQLSTATEs that mean "the server is not there right now", not "the query was wrong":
 * class 08 (connection exception), shutdown and start-up states of class 57, and too many
 * connections. SQLite's busy/locked codes are the same kind of condition on the embedded store.
 */
const TRANSIENT_SQLSTATE = /^(08...|57P01|57P02|57P03|53300)$/;
const TRANSIENT_SQLITE = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);

/** Messages node-postgres raises without a code when a connection dies under it. */
const LOST_CONNECTION_MESSAGE =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect/i;

/**
 * Whether `err` says the database is unreachable or restarting (a condition that passes), as
 * opposed to a bad query or a bug. Pure: looks at the error's code and message only, following
 * `cause` links, so callers can answer "unavailable, retry" instead of "internal error".
 */
export function isStoreUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string') {
      if (CONNECTION_ERRNO.has(code) || TRANSIENT_SQLITE.has(code) || TRANSIENT_SQLSTATE.test(code))
        return true;
    }
    if (typeof message === 'string' && LOST_CONNECTION_MESSAGE.test(message)) return true;
    // An AggregateError (a host with several addresses, all refusing) carries its reasons in `errors`.
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((inner) => isStoreUnavailable(inner))) return true;
    e = cause;
  }
  return false;
}

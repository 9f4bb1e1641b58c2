import pg from 'pg';

/** The shared services of this machine and CI (issue text: trust auth, database `test`). */
export const PG_ADMIN_URL = process.env.TWINLINE_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.TWINLINE_TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** Whether a PostgreSQL server answers at `url` (1.5 s at most). */
export async function postgresReachable(url = PG_ADMIN_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** Whether a Redis server answers PING at `url` (1.5 s at most). */
export async function redisReachable(url = REDIS_URL): Promise<boolean> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1500 });
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningServer, type ServeOptions, startServer } from '../../src/server/index.js';
import { officeTempConfig } from './office-temp.js';

/**
 * `twinline serve` on port 0 over a fresh copy of the office domain, its model a scripted one
 * (`script` is the scripted provider's turns), on SQLite (`dir`/twinline.sqlite) with no Redis.
 * `cleanup` removes the copy once the server is closed.
 */
export async function serveScripted(
  script: unknown,
  options: Pick<ServeOptions, 'tracing'> & { env?: Record<string, string> } = {},
): Promise<{ server: RunningServer; dir: string; cleanup: () => void }> {
  const office = officeTempConfig();
  const file = join(office.dir, 'model.json');
  writeFileSync(file, JSON.stringify(script));
  const server = await startServer({
    port: 0,
    config: office.configFile,
    model: `scripted:${file}`,
    env: { ...process.env, TWINLINE_DATABASE_URL: '', TWINLINE_REDIS_URL: '', ...options.env },
    log: () => {},
    ...(options.tracing ? { tracing: options.tracing } : {}),
  });
  return { server, dir: office.dir, cleanup: office.cleanup };
}

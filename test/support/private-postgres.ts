import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A PostgreSQL server of a test's own, in a temporary directory on a free port, so a test can
 * stop and restart a real server without disturbing the shared one other tests use.
 */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust auth). */
  readonly url: string;
  /** Fast shutdown (every connection is closed), as in a restart. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  destroy(): Promise<void>;
}

/** The directory of PostgreSQL's server programs (Debian's layout), or undefined. */
function serverBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

/** The server refuses to run as root: as root, run its programs as the `postgres` user. */
function asServerUser(program: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * Why a private server cannot be started here (no server programs, or root without a `postgres`
 * user), or undefined when it can.
 */
export function privatePostgresUnavailable(): string | undefined {
  if (!serverBinDir()) return 'PostgreSQL server programs (/usr/lib/postgresql/*/bin/initdb) not installed';
  if (process.getuid?.() === 0 && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser'))
    return 'running as root without runuser to start PostgreSQL as the postgres user';
  return undefined;
}

/** initdb + start: about a second on this machine. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = serverBinDir();
  if (!bin) throw new Error(privatePostgresUnavailable());
  const dir = mkdtempSync(join(tmpdir(), 'twinline-pg-'));
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    chownSync(dir, Number(stdout.trim()), -1);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  const exec = (program: string, args: string[]) => run(...asServerUser(join(bin, program), args));
  await exec('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  // The socket lives in the private directory; fsync off: the data is thrown away after the test.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () => {
    await exec('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start']);
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await exec('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => stop('fast'),
    start,
    async destroy() {
      await stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

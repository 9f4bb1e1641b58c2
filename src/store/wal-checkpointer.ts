import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Counters of the background checkpointer, for health checks and tests. */
export interface WalCheckpointStats {
  /** Whether checkpoints currently run in the background (false: SQLite's own, on commit). */
  readonly background: boolean;
  readonly checkpoints: number;
  /** Frames in the WAL at the last checkpoint, and how many of them were copied to the database. */
  readonly lastLogFrames: number;
  readonly lastCheckpointedFrames: number;
  readonly lastError: string | undefined;
}

/** A running background checkpointer. */
export interface WalCheckpointer {
  stats(): WalCheckpointStats;
  /** Stops the thread and gives checkpoints back to the main connection. */
  stop(): Promise<void>;
}

/** The SQLite connection the checkpointer relieves: only its pragma is used. */
interface MainConnection {
  pragma(source: string): unknown;
}

/** SQLite's default: a commit that leaves the WAL above this many pages checkpoints it. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

// CommonJS source of the thread: its own connection to the same file, one PASSIVE checkpoint per
// interval. PASSIVE never waits for the writer and never makes it wait, so the main thread's
// commits go on while pages are copied; SQLite restarts the WAL at the next commit after a
// checkpoint has copied everything.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ type: 'checkpoint', log: r.log, checkpointed: r.checkpointed });
  } catch (e) {
    parentPort.postMessage({ type: 'error', message: String((e && e.message) || e) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage({ type: 'ready' });
`;

/**
 * Moves the WAL checkpoints of a SQLite file off the main thread. Without it, the commit that
 * pushes the WAL past 1,000 pages copies them all into the database and syncs it, on the thread
 * that serves requests: measured on the audit table, a 60-row batch then took 8–13 ms instead of
 * 0.6 ms, and checkpoints were a third of all audit-write time.
 *
 * The main connection stops checkpointing only once the thread is running, and takes it back if
 * the thread fails or stops, so the WAL never goes unchecked.
 */
export async function startWalCheckpointer(
  main: MainConnection,
  file: string,
  options: { readonly intervalMs?: number } = {},
): Promise<WalCheckpointer> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file, intervalMs: Math.max(10, options.intervalMs ?? 250) },
  });
  // Never keeps the process alive on its own; the store's close() stops it.
  worker.unref();
  let background = false;
  let checkpoints = 0;
  let lastLogFrames = 0;
  let lastCheckpointedFrames = 0;
  let lastError: string | undefined;
  const giveBack = () => {
    if (!background) return;
    background = false;
    main.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  };
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (m: { type: string; log?: number; checkpointed?: number; message?: string }) => {
      if (m.type === 'ready') {
        main.pragma('wal_autocheckpoint = 0');
        background = true;
        resolve();
      } else if (m.type === 'checkpoint') {
        checkpoints++;
        lastLogFrames = m.log ?? 0;
        lastCheckpointedFrames = m.checkpointed ?? 0;
      } else if (m.type === 'error') {
        lastError = m.message;
      }
    });
    worker.once('error', (err) => {
      lastError = err.message;
      giveBack();
      reject(err);
    });
    worker.once('exit', () => {
      giveBack();
      resolve();
    });
  });
  let stopped: Promise<void> | undefined;
  return {
    stats: () => ({ background, checkpoints, lastLogFrames, lastCheckpointedFrames, lastError }),
    stop() {
      stopped ??= (async () => {
        giveBack();
        if (worker.threadId === -1) return; // already exited
        const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        worker.postMessage('stop');
        await exited;
      })();
      return stopped;
    },
  };
}

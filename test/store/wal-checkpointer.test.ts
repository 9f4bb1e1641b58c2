import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { decide, uuidV7 } from '../../src/core/index.js';
import { type AuditRecord, openStore } from '../../src/store/index.js';
import { startWalCheckpointer } from '../../src/store/wal-checkpointer.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'twinline-wal-'));
  dirs.push(dir);
  return join(dir, 'twinline.sqlite');
}

function record(i: number): AuditRecord {
  return {
    id: uuidV7(),
    time: new Date().toISOString(),
    tenant: 'acme',
    user: `u${i % 6}`,
    sessionId: `s${i}`,
    agent: 'main',
    domain: 'quick',
    tool: 'calendar_list',
    callId: `c${i}`,
    argsHash: 'a'.repeat(64),
    status: 'executed',
    decisionPath: [decide('allow', 'policy', 'rbac.ok', 'role may call')],
    resultSummary: 'three meetings this week',
    durationMs: 1.5,
  };
}

const walBytes = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

describe('background WAL checkpoints', () => {
  it('keep the WAL bounded under a stream of audit writes, and lose nothing', async () => {
    const file = tempFile();
    const store = await openStore({ sqliteFile: file, env: {} });
    await store.checkpointInBackground({ intervalMs: 20 });
    expect(store.checkpointStats()?.background).toBe(true);
    // 40 batches of 1,000 rows (~40 MB of WAL frames in all), each committed by the main connection.
    let maxWal = 0;
    for (let b = 0; b < 40; b++) {
      for (let i = 0; i < 1000; i++) store.audit.record(record(b * 1000 + i));
      await store.audit.flush();
      await new Promise((r) => setTimeout(r, 25));
      maxWal = Math.max(maxWal, walBytes(file));
    }
    const stats = store.checkpointStats()!;
    expect(stats.checkpoints).toBeGreaterThan(0);
    expect(stats.lastError).toBeUndefined();
    // The main connection no longer checkpoints (autocheckpoint 0): only the thread keeps the WAL
    // from growing to the whole ~40 MB written.
    expect(maxWal).toBeLessThan(16 * 1024 * 1024);
    await store.close();
    expect(store.checkpointStats()?.background).toBe(false);
    const db = new Database(file, { readonly: true });
    try {
      expect((db.prepare('select count(*) as n from audit_records').get() as { n: number }).n).toBe(40_000);
    } finally {
      db.close();
    }
  }, 60_000);

  it('takes checkpoints from the main connection only while the thread runs, and gives them back', async () => {
    const file = tempFile();
    new Database(file).pragma('journal_mode = WAL');
    const calls: string[] = [];
    const checkpointer = await startWalCheckpointer({ pragma: (s: string) => calls.push(s) }, file);
    expect(calls).toEqual(['wal_autocheckpoint = 0']);
    await checkpointer.stop();
    expect(calls).toEqual(['wal_autocheckpoint = 0', 'wal_autocheckpoint = 1000']);
    await checkpointer.stop(); // idempotent
    expect(calls).toHaveLength(2);
  });

  it('leaves checkpoints with the main connection when the thread cannot start', async () => {
    const calls: string[] = [];
    const missing = join(tmpdir(), `twinline-wal-missing-${process.pid}`, 'none.sqlite');
    await expect(startWalCheckpointer({ pragma: (s: string) => calls.push(s) }, missing)).rejects.toThrow();
    expect(calls).toEqual([]);
  });

  it('is a no-op on an in-memory database', async () => {
    const store = await openStore({ sqliteFile: ':memory:', env: {} });
    await store.checkpointInBackground();
    expect(store.checkpointStats()).toBeUndefined();
    await store.close();
  });
});

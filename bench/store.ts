/**
 * Audit throughput of the store: records/s from `record()` to durable after `flush()`, on a SQLite
 * temp file and (when it answers) a fresh PostgreSQL database; plus the caller-side cost of
 * `record()`, which sits on the gateway's decision path, and this process's CPU time per record.
 * Prints one JSON object.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { decide } from '../src/core/index.js';
import { type AuditRecord, type OpenStoreOptions, openStore } from '../src/store/index.js';

const RECORDS = 50_000;
const POSTGRES_URL = process.env['TWINLINE_BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

function makeRecords(n: number): AuditRecord[] {
  const path = [
    decide('allow', 'access', 'access.ok', 'visible'),
    decide('allow', 'policy', 'rbac.ok', 'role may call'),
  ];
  return Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    time: new Date(Date.now() + i).toISOString(),
    tenant: `tenant-${i % 4}`,
    user: `user-${i % 50}`,
    sessionId: `s-${i % 200}`,
    agent: 'main',
    domain: 'quick',
    tool: `tool_${i % 20}`,
    callId: `c-${i}`,
    argsHash: randomBytes(32).toString('hex'),
    status: 'executed',
    decisionPath: path,
    resultSummary: 'ok: 3 rows',
    durationMs: 2.5,
  }));
}

async function measure(options: OpenStoreOptions) {
  const store = await openStore(options);
  try {
    // Warm-up so JIT and connection set-up are not measured.
    for (const r of makeRecords(2000)) store.audit.record(r);
    await store.audit.flush();
    const records = makeRecords(RECORDS);
    const cpuBefore = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (const r of records) store.audit.record(r);
    const recorded = process.hrtime.bigint();
    await store.audit.flush();
    const done = process.hrtime.bigint();
    const cpu = process.cpuUsage(cpuBefore);
    const totalMs = Number(done - start) / 1e6;
    return {
      records: RECORDS,
      recordsPerSecond: Math.round(RECORDS / (totalMs / 1000)),
      totalMs: Math.round(totalMs),
      recordCallNsPerOp: Math.round(Number(recorded - start) / RECORDS),
      // CPU time of this process per record (SQLite's work included, PostgreSQL's not): unlike the
      // wall-clock rate it does not depend on how busy the machine is.
      cpuMicrosPerRecord: Number(((cpu.user + cpu.system) / RECORDS).toFixed(2)),
      dropped: store.audit.stats().dropped,
    };
  } finally {
    await store.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'twinline-bench-store-'));
const result: Record<string, unknown> = {};
try {
  result['sqlite'] = await measure({ sqliteFile: join(dir, 'bench.sqlite') });
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
try {
  await admin.connect();
  const name = `twinline_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${name}`;
    result['postgres'] = await measure({ url: url.toString() });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
} catch (error) {
  result['postgres'] = { skipped: `PostgreSQL not available: ${String(error)}` };
} finally {
  await admin.end().catch(() => {});
}

process.stdout.write(`${JSON.stringify(result)}\n`);

import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { deepPlan, officeConfigIn } from './office-fixture.js';

const WORKER = join(import.meta.dirname, 'fixtures', 'deep-worker.ts');
const STEPS = 9;

function worker(args: string[]): { child: ChildProcess; lines: AsyncIterable<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { child, lines: createInterface({ input: child.stdout! }) };
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((r) =>
    child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r()),
  );
}

/** Deterministic per-run randomness, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('deep line crash safety (real processes, SIGKILL at a random point)', () => {
  it('20 kills at random steps: every task resumes and completes, no side-effecting step runs twice', async () => {
    const office = officeConfigIn();
    try {
      const random = rng(20261130);
      for (let run = 0; run < 20; run++) {
        const marker = `crash${run}`;
        const script = join(office.dir, `${marker}.json`);
        writeFileSync(
          script,
          JSON.stringify([{ text: JSON.stringify(deepPlan(STEPS, marker)) }, { text: `done ${marker}` }]),
        );
        const killAfter = Math.floor(random() * STEPS); // steps finished before the kill
        const extraDelayMs = Math.floor(random() * 15); // lands the kill between or inside steps

        const first = worker(['start', office.dir, script]);
        let taskId = '';
        let finished = 0;
        for await (const line of first.lines) {
          const msg = JSON.parse(line) as { type: string; taskId?: string };
          if (msg.type === 'task') taskId = msg.taskId!;
          if (msg.type === 'step_finished') finished++;
          if (taskId && finished >= killAfter) break;
        }
        await new Promise((r) => setTimeout(r, extraDelayMs));
        first.child.kill('SIGKILL');
        await exited(first.child);
        expect(taskId).not.toBe('');

        const second = worker(['resume', office.dir, script, taskId]);
        let done: { result?: { outcome: string } } | undefined;
        for await (const line of second.lines) {
          const msg = JSON.parse(line);
          if (msg.type === 'done') done = msg;
        }
        await exited(second.child);
        expect(done?.result?.outcome, `run ${run}`).toBe('completed');

        const store = await openStore({ sqliteFile: join(office.dir, 'twinline.sqlite') });
        const steps = await store.forTenant('acme').tasks.getSteps(taskId);
        await store.close();
        expect(steps).toHaveLength(STEPS);
        const data = new Database(join(office.dir, 'office', 'acme.sqlite'), { readonly: true });
        for (const s of steps) {
          expect(['done', 'skipped'], `run ${run} step ${s.stepNo}`).toContain(s.status);
          if (s.tool === 'ticket_create') {
            const { n } = data
              .prepare('SELECT count(*) AS n FROM tickets WHERE title = ?')
              .get(`${marker} follow-up ${s.stepNo}`) as { n: number };
            // At most once, always; exactly once when the step completed.
            expect(n, `run ${run} step ${s.stepNo} ran ${n} times`).toBeLessThanOrEqual(1);
            if (s.status === 'done') expect(n).toBe(1);
          } else {
            expect(s.status).toBe('done');
          }
        }
        data.close();
      }
    } finally {
      office.cleanup();
    }
  }, 240_000);
});

/**
 * Control-protocol round trips through a real child-process pipe. The child plays the engine:
 * its `HostApprover` sends `can_use_tool` over the `ControlBus` as NDJSON on stdout; this process
 * plays the host and allows each one on the child's stdin. Reports the round-trip p50/p99
 * (sequential requests) and control messages per second (requests + responses, pipelined).
 * Targets: p50 ≤ 1 ms, ≥ 20,000 messages/s.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ApprovalRequest } from '../src/gateway/index.js';
import {
  ControlBus,
  classifyHostLine,
  encodeLine,
  HostApprover,
  LineDecoder,
} from '../src/protocol/index.js';

const SEQUENTIAL = 5_000;
const WARMUP = 500;
const PIPELINED = 100_000;
const IN_FLIGHT = 256;

function approvalRequest(i: number): ApprovalRequest {
  return {
    call: { id: `toolu_${i}`, name: 'write_file', arguments: { path: `notes/${i}.txt`, content: 'hello' } },
    tool: { name: 'write_file', description: 'Write a file in the workspace' } as ApprovalRequest['tool'],
    args: { path: `notes/${i}.txt`, content: 'hello' },
    decision: {
      verdict: 'ask',
      stage: 'approval',
      ruleId: 'mode.default.edit',
      reason: 'edits need approval',
    },
    ctx: {
      identity: { tenant: 'acme', user: 'alice', roles: [], dataLevel: 'L1', attributes: {} },
      sessionId: 's',
    },
  };
}

async function child(): Promise<void> {
  const bus = new ControlBus({
    send: (env) => {
      process.stdout.write(encodeLine(env));
    },
    defaultTimeoutMs: 10_000,
  });
  const approver = new HostApprover(bus, { timeoutMs: 10_000 });
  const decoder = new LineDecoder();
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    for (const d of decoder.push(chunk)) {
      if (d.kind !== 'line') continue;
      const line = classifyHostLine(d.text);
      if (line.kind === 'control_response') bus.handleResponse(line.envelope);
    }
  });
  const turn = new AbortController();
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + SEQUENTIAL; i++) {
    const t0 = process.hrtime.bigint();
    const answer = await approver.request(approvalRequest(i), turn.signal);
    const dt = Number(process.hrtime.bigint() - t0) / 1e6;
    if (answer.behavior !== 'allow') throw new Error('expected allow');
    if (i >= WARMUP) samples.push(dt);
  }
  samples.sort((a, b) => a - b);
  const pct = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))] ?? 0;

  const t0 = process.hrtime.bigint();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < PIPELINED) {
      const i = next++;
      await approver.request(approvalRequest(i), turn.signal);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const result = {
    roundTripMs: { p50: pct(0.5), p99: pct(0.99), max: samples.at(-1) ?? 0, samples: samples.length },
    throughput: {
      requests: PIPELINED,
      inFlight: IN_FLIGHT,
      seconds: Number(seconds.toFixed(3)),
      controlMessagesPerSecond: Math.round((PIPELINED * 2) / seconds),
      roundTripsPerSecond: Math.round(PIPELINED / seconds),
    },
    pendingLeft: bus.pendingCount,
  };
  process.stdout.write(encodeLine({ type: 'bench_result', result }));
  process.stdin.pause();
}

async function host(): Promise<void> {
  const file = fileURLToPath(import.meta.url);
  const proc = spawn(process.execPath, [...process.execArgv, file, '--child'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const decoder = new LineDecoder();
  proc.stdout.setEncoding('utf8');
  const result = await new Promise<unknown>((resolve, reject) => {
    proc.on('error', reject);
    proc.on('exit', (code) => reject(new Error(`child exited ${code} before reporting`)));
    proc.stdout.on('data', (chunk: string) => {
      let out = '';
      for (const d of decoder.push(chunk)) {
        if (d.kind !== 'line') continue;
        const msg = JSON.parse(d.text) as {
          type: string;
          request_id?: string;
          request?: { tool_use_id?: string };
          result?: unknown;
        };
        if (msg.type === 'control_request') {
          out += encodeLine({
            type: 'control_response',
            response: {
              subtype: 'success',
              request_id: msg.request_id,
              response: { behavior: 'allow', toolUseID: msg.request?.tool_use_id },
            },
          });
        } else if (msg.type === 'bench_result') resolve(msg.result);
      }
      if (out) proc.stdin.write(out);
    });
  });
  proc.stdin.end();
  // The doors themselves, through their real clients (needs `npm run build`).
  const { doorFigures } = await import('./_doors-protocol.js');
  const doors = await doorFigures(Number(process.env['PROTOCOL_DOOR_RUNS'] ?? 5));
  const r = result as { roundTripMs: { p50: number }; throughput: { controlMessagesPerSecond: number } };
  const summary = {
    bench: 'protocol',
    ...(result as object),
    doors,
    loadAverage: (await import('node:os')).loadavg(),
    targets: { p50Ms: 1, controlMessagesPerSecond: 20_000 },
    meetsTargets: r.roundTripMs.p50 <= 1 && r.throughput.controlMessagesPerSecond >= 20_000,
    node: process.version,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

if (process.argv.includes('--child')) await child();
else await host();

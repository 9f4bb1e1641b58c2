/**
 * End-to-end figures of the two host doors through their real clients against `bin/twinline.js`
 * (run `npm run build` first): the stream-json engine driven by the Claude Agent SDK, and
 * `twinline acp` driven by the ACP SDK's client side. Per door: start → first update (process
 * spawn to the first message about the prompt: `system/init`, or the first `session/update`),
 * and the permission round trip (the host answers the engine's ask → the engine's next message
 * about that call arrives: the tool result for stream-json, the `in_progress` update for ACP).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { query } from '@anthropic-ai/claude-agent-sdk';

const BIN = resolve(import.meta.dirname, '../bin/twinline.js');
const CALLS = 10;

function script(): { dir: string; model: string } {
  const dir = mkdtempSync(join(tmpdir(), 'twinline-doors-'));
  const turns = [
    ...Array.from({ length: CALLS }, (_, i) => ({
      tool_calls: [{ id: `t${i}`, name: 'write_file', arguments: { path: `f${i}.txt`, content: 'x' } }],
    })),
    { text: 'done' },
  ];
  const path = join(dir, 'model.json');
  writeFileSync(path, JSON.stringify(turns));
  return { dir, model: `scripted:${path}` };
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('TWINLINE_')) out[k] = v;
  return { ...out, ...extra };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

async function streamJsonRun(): Promise<{ firstUpdateMs: number; permissionRoundTripMs: number[] }> {
  const { dir, model } = script();
  const t0 = performance.now();
  let first = 0;
  const answeredAt = new Map<string, number>();
  const trips: number[] = [];
  const q = query({
    prompt: 'write',
    options: {
      pathToClaudeCodeExecutable: BIN,
      cwd: dir,
      model,
      env: env(),
      canUseTool: async (_t, input, { toolUseID }) => {
        answeredAt.set(toolUseID, performance.now());
        return { behavior: 'allow', updatedInput: input };
      },
    },
  });
  for await (const m of q) {
    if (!first) first = performance.now() - t0;
    if (m.type === 'user' && Array.isArray(m.message.content)) {
      for (const b of m.message.content as { tool_use_id?: string }[]) {
        const at = b.tool_use_id ? answeredAt.get(b.tool_use_id) : undefined;
        if (at !== undefined) trips.push(performance.now() - at);
      }
    }
  }
  return { firstUpdateMs: first, permissionRoundTripMs: trips };
}

async function acpRun(): Promise<{ firstUpdateMs: number; permissionRoundTripMs: number[] }> {
  const { dir, model } = script();
  const t0 = performance.now();
  const proc = spawn(process.execPath, [BIN, 'acp'], {
    cwd: dir,
    env: env({ TWINLINE_MODEL: model }),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let first = 0;
  const answeredAt = new Map<string, number>();
  const trips: number[] = [];
  const client = acp
    .client({ name: 'bench' })
    .onNotification('session/update', ({ params }) => {
      if (!first) first = performance.now() - t0;
      const u = params.update;
      if (u.sessionUpdate === 'tool_call_update' && u.status === 'in_progress') {
        const at = answeredAt.get(u.toolCallId);
        if (at !== undefined) trips.push(performance.now() - at);
      }
    })
    .onRequest('session/request_permission', ({ params }) => {
      answeredAt.set(params.toolCall.toolCallId, performance.now());
      return { outcome: { outcome: 'selected', optionId: 'allow_once' } };
    });
  const connection = client.connect(
    acp.ndJsonStream(
      Writable.toWeb(proc.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(proc.stdout) as unknown as ReadableStream<Uint8Array>,
    ),
  );
  await connection.agent.request('initialize', {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {},
  });
  const { sessionId } = await connection.agent.request('session/new', { cwd: dir, mcpServers: [] });
  await connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write' }] });
  connection.close();
  proc.stdin.end();
  await new Promise((r) => proc.on('close', r));
  return { firstUpdateMs: first, permissionRoundTripMs: trips };
}

/** Both doors, `runs` sessions each, alternating so machine load affects them alike. */
export async function doorFigures(runs = 5): Promise<Record<string, unknown>> {
  const sj: Awaited<ReturnType<typeof streamJsonRun>>[] = [];
  const ac: Awaited<ReturnType<typeof acpRun>>[] = [];
  for (let i = 0; i < runs; i++) {
    sj.push(await streamJsonRun());
    ac.push(await acpRun());
  }
  const summary = (rs: typeof sj) => ({
    startToFirstUpdateMs: {
      median: median(rs.map((r) => r.firstUpdateMs)),
      runs: rs.map((r) => Math.round(r.firstUpdateMs)),
    },
    permissionRoundTripMs: {
      median: median(rs.flatMap((r) => r.permissionRoundTripMs)),
      samples: rs.reduce((n, r) => n + r.permissionRoundTripMs.length, 0),
    },
  });
  return { sessions: runs, callsPerSession: CALLS, streamJson: summary(sj), acp: summary(ac) };
}

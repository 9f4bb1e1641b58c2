import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { ModelMessage } from '../agent/index.js';
import { packageVersion } from '../core/index.js';
import type { EngineRuntimeFactory, HostApprovalMode } from '../protocol/index.js';
import { trustGateFor } from '../protocol/stdio-mode.js';
import { AcpSession } from './acp-session.js';

/** A loadable session as it is kept on disk (engine state: no tool may write it). */
interface Transcript {
  readonly version: 1;
  readonly id: string;
  readonly cwd: string;
  readonly mode: HostApprovalMode;
  readonly history: readonly ModelMessage[];
}

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function transcriptPath(cwd: string, id: string): string {
  return join(cwd, '.twinline', 'acp-sessions', `${id}.json`);
}

function saveTranscript(t: Transcript): void {
  const path = transcriptPath(t.cwd, t.id);
  mkdirSync(join(t.cwd, '.twinline', 'acp-sessions'), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(t), { mode: 0o600 });
  renameSync(tmp, path);
}

function loadTranscript(cwd: string, id: string): Transcript {
  if (!SESSION_ID.test(id)) throw acp.RequestError.invalidParams({ sessionId: id }, 'not a session id');
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(transcriptPath(cwd, id), 'utf8'));
  } catch {
    throw acp.RequestError.resourceNotFound(id);
  }
  const t = data as Partial<Transcript>;
  if (t.version !== 1 || t.id !== id || !Array.isArray(t.history) || typeof t.mode !== 'string') {
    throw acp.RequestError.internalError({ sessionId: id }, 'the session transcript is damaged');
  }
  return t as Transcript;
}

/** ACP's MCP server list as the runtime's `mcp_set_servers` form. */
function serversOf(list: readonly acp.McpServer[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of list ?? []) {
    if ('command' in s) {
      out[s.name] = {
        command: s.command,
        args: s.args,
        env: Object.fromEntries((s.env ?? []).map((e) => [e.name, e.value])),
      };
    } else {
      out[s.name] = {
        url: s.url,
        headers: Object.fromEntries((s.headers ?? []).map((h) => [h.name, h.value])),
      };
    }
  }
  return out;
}

/** Replays a loaded conversation to the editor: the user's prompts and the agent's answers. */
async function replay(client: acp.AgentContext, id: string, history: readonly ModelMessage[]): Promise<void> {
  for (const m of history) {
    if (m.role === 'user' && m.content) {
      await client.notify('session/update', {
        sessionId: id,
        update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: m.content } },
      });
    } else if (m.role === 'assistant' && m.content) {
      await client.notify('session/update', {
        sessionId: id,
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: m.content } },
      });
    }
  }
}

/**
 * `twinline acp`: an Agent Client Protocol agent on stdin/stdout (`@agentclientprotocol/sdk`),
 * for editors such as Zed. Each session is the stream-json engine's runtime — the `host-session`
 * profile (or `stream-json` for `TWINLINE_USER`), the same modes, rules, trust gate, egress gate
 * and audit. Resolves with the exit code when the editor closes the connection.
 */
export async function runAcpMode(
  factory: EngineRuntimeFactory = async (config) =>
    (await import('../protocol/agent-runtime.js')).createAgentRuntime(config),
): Promise<number> {
  const env = process.env;
  const log = (message: string): void => {
    process.stderr.write(`twinline acp: ${message}\n`);
  };
  const sessions = new Map<string, AcpSession>();
  const persist = (s: AcpSession): void => {
    try {
      saveTranscript({ version: 1, id: s.id, cwd: s.cwd, mode: s.mode, history: s.runtime.history() });
    } catch (err) {
      log(`could not keep session ${s.id}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const open = async (
    client: acp.AgentContext,
    id: string,
    cwd: string,
    servers: readonly acp.McpServer[] | undefined,
    loaded?: Transcript,
  ): Promise<AcpSession> => {
    if (!isAbsolute(cwd)) throw acp.RequestError.invalidParams({ cwd }, 'cwd must be an absolute path');
    const mode: HostApprovalMode = loaded?.mode ?? 'default';
    const runtime = await factory({
      cwd,
      sessionId: id,
      model: undefined,
      allowedTools: [],
      disallowedTools: [],
      systemPrompt: undefined,
      appendSystemPrompt: undefined,
      maxTurns: undefined,
      approvalMode: mode === 'default' || mode === 'plan' ? mode : 'default',
      env,
      channel: 'acp',
      ...(loaded ? { history: loaded.history } : {}),
    });
    const modeGate = trustGateFor(cwd, env);
    const session = new AcpSession({ id, cwd, runtime, client, modeGate, mode: 'default', persist });
    // A privileged mode kept in a transcript passes the trust gate again, as any mode does.
    if (mode !== 'default') await session.setMode(mode).catch((err: unknown) => log(String(err)));
    const wanted = serversOf(servers);
    if (Object.keys(wanted).length > 0) {
      const r = await runtime.controls.setServers(wanted);
      for (const [name, why] of Object.entries(r.errors)) log(`MCP server ${name}: ${why}`);
    }
    sessions.set(id, session);
    return session;
  };

  const sessionOf = (id: string): AcpSession => {
    const s = sessions.get(id);
    if (!s) throw acp.RequestError.resourceNotFound(id);
    return s;
  };

  const app = acp
    .agent({ name: 'twinline' })
    .onRequest('initialize', () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: false },
        mcpCapabilities: { http: true, sse: false },
      },
      agentInfo: { name: 'twinline', title: 'Twinline', version: packageVersion() },
      authMethods: [],
    }))
    .onRequest('authenticate', () => ({}))
    .onRequest('session/new', async ({ params, client }) => {
      const s = await open(client, randomUUID(), params.cwd, params.mcpServers);
      persist(s);
      return { sessionId: s.id, modes: s.modes() };
    })
    .onRequest('session/load', async ({ params, client }) => {
      const t = loadTranscript(params.cwd, params.sessionId);
      const existing = sessions.get(params.sessionId);
      if (existing) await existing.runtime.close().catch(() => undefined);
      const s = await open(client, t.id, params.cwd, params.mcpServers, t);
      await replay(client, s.id, t.history);
      return { modes: s.modes() };
    })
    .onRequest('session/set_mode', async ({ params }) => {
      try {
        await sessionOf(params.sessionId).setMode(params.modeId);
      } catch (err) {
        if (err instanceof acp.RequestError) throw err;
        // The editor shows this: name the mode and the folder (the trust gate's own words).
        throw acp.RequestError.invalidParams(
          { modeId: params.modeId },
          err instanceof Error ? err.message : String(err),
        );
      }
      return {};
    })
    .onRequest('session/prompt', async ({ params }) => {
      const stopReason = await sessionOf(params.sessionId).prompt(params.prompt);
      return { stopReason };
    })
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });

  const stream = acp.ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  const onTerm = (): void => connection.close();
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onTerm);
  await connection.closed.catch(() => undefined);
  process.off('SIGTERM', onTerm);
  process.off('SIGINT', onTerm);
  for (const s of sessions.values()) {
    s.cancel();
    await s.runtime.close().catch((err: unknown) => log(`close: ${String(err)}`));
  }
  setTimeout(() => process.exit(0), 200).unref();
  return 0;
}

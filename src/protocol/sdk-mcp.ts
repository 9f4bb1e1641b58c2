import type { McpRpc } from '../agent/index.js';
import type { ControlBus } from './control-bus.js';
import { PROTOCOL_ERROR_CODES, ProtocolError } from './errors.js';

/** A server name the engine accepts from a host (it becomes part of `mcp__<server>__<tool>`). */
export const SDK_SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The names of a host's in-process MCP servers from `initialize.sdkMcpServers`: Claude sends a
 * list of names, Qwen a record `{ name: { type: "sdk", name } }`. Bad names are reported.
 */
export function sdkServerNames(raw: unknown): { names: string[]; problems: string[] } {
  const names: string[] = [];
  const problems: string[] = [];
  const list = Array.isArray(raw) ? raw : raw && typeof raw === 'object' ? Object.keys(raw) : [];
  for (const n of list) {
    if (typeof n === 'string' && SDK_SERVER_NAME.test(n)) {
      if (!names.includes(n)) names.push(n);
    } else
      problems.push(
        `SDK MCP server name ${JSON.stringify(String(n).slice(0, 64))} is not [A-Za-z0-9_-]{1,64}`,
      );
  }
  return { names, problems };
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * JSON-RPC to one of the host's in-process MCP servers, carried by `mcp_message` control requests
 * (the host's SDK routes each to its server and answers with `{ mcp_response }`). The reply is
 * checked against the request id; an error reply, a timeout or a host that went away rejects.
 */
export class SdkMcpRpc implements McpRpc {
  #nextId = 1;

  constructor(
    private readonly bus: ControlBus,
    private readonly server: string,
  ) {}

  async request(
    method: string,
    params: unknown,
    options: { signal?: AbortSignal; timeoutMs: number },
  ): Promise<unknown> {
    const id = this.#nextId++;
    const raw = await this.bus.request(
      { subtype: 'mcp_message', server_name: this.server, message: { jsonrpc: '2.0', id, method, params } },
      { timeoutMs: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) },
    );
    const where = `mcp_message ${this.server}/${method}`;
    const reply = isObj(raw) ? raw['mcp_response'] : undefined;
    if (!isObj(reply)) {
      throw new ProtocolError(
        PROTOCOL_ERROR_CODES.invalidMessage,
        'the host answered without an mcp_response',
        {
          where,
        },
      );
    }
    if (reply['id'] !== id) {
      throw new ProtocolError(
        PROTOCOL_ERROR_CODES.invalidMessage,
        `the reply is for id ${String(reply['id'])}, not ${id}`,
        {
          where,
        },
      );
    }
    if (isObj(reply['error'])) {
      const message = reply['error']['message'];
      throw new ProtocolError(
        PROTOCOL_ERROR_CODES.errorResponse,
        `the server answered an error: ${typeof message === 'string' ? message.slice(0, 500) : 'unknown'}`,
        { where },
      );
    }
    if (!('result' in reply)) {
      throw new ProtocolError(PROTOCOL_ERROR_CODES.invalidMessage, 'the reply has neither result nor error', {
        where,
      });
    }
    return reply['result'];
  }

  async notify(method: string, params: unknown): Promise<void> {
    await this.bus.request(
      { subtype: 'mcp_message', server_name: this.server, message: { jsonrpc: '2.0', method, params } },
      { timeoutMs: 10_000 },
    );
  }
}

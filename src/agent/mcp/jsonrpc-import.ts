import type { ToolSpec } from '../../tools/index.js';
import { type McpImportPolicy, McpToolError, type McpToolListing, mcpToolSpec } from './mcp-manifest.js';

/** One JSON-RPC exchange with an MCP server, over whatever carries it (a host's `mcp_message`). */
export interface McpRpc {
  /** Sends a request and resolves with its `result`; rejects on an error reply or a timeout. */
  request(
    method: string,
    params: unknown,
    options: { signal?: AbortSignal; timeoutMs: number },
  ): Promise<unknown>;
  /** Sends a notification (no reply is awaited beyond the carrier's acknowledgement). */
  notify(method: string, params: unknown): Promise<void>;
}

/** Most tools one server may bring; a listing beyond it is refused, not truncated. */
export const MAX_MCP_TOOLS = 256;

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A `tools/list` result read defensively: anything that is not a sane listing is an error naming it. */
export function readToolListing(server: string, result: unknown): McpToolListing[] {
  const where = `mcp:${server}/tools/list`;
  if (!isObj(result) || !Array.isArray(result['tools'])) {
    throw new McpToolError('mcp.bad_listing', 'tools/list did not answer { tools: [...] }', { where });
  }
  const tools = result['tools'] as unknown[];
  if (tools.length > MAX_MCP_TOOLS) {
    throw new McpToolError(
      'mcp.bad_listing',
      `tools/list named ${tools.length} tools (at most ${MAX_MCP_TOOLS})`,
      {
        where,
      },
    );
  }
  const seen = new Set<string>();
  return tools.map((t, i) => {
    if (!isObj(t) || typeof t['name'] !== 'string' || !NAME.test(t['name'])) {
      throw new McpToolError('mcp.bad_listing', `tool ${i} has no valid name ([A-Za-z0-9_.-], 1-128)`, {
        where,
      });
    }
    const name = t['name'];
    if (seen.has(name)) throw new McpToolError('mcp.bad_listing', `tool ${name} is listed twice`, { where });
    seen.add(name);
    const description = typeof t['description'] === 'string' ? t['description'].slice(0, 2000) : undefined;
    const inputSchema = isObj(t['inputSchema']) ? (t['inputSchema'] as Record<string, unknown>) : undefined;
    const a = isObj(t['annotations']) ? t['annotations'] : {};
    // Hints count only when they are real booleans; anything else is no hint (the safe default).
    const hint = (k: string): boolean | undefined =>
      typeof a[k] === 'boolean' ? (a[k] as boolean) : undefined;
    const annotations = {
      ...(hint('readOnlyHint') !== undefined ? { readOnlyHint: hint('readOnlyHint') } : {}),
      ...(hint('destructiveHint') !== undefined ? { destructiveHint: hint('destructiveHint') } : {}),
      ...(hint('idempotentHint') !== undefined ? { idempotentHint: hint('idempotentHint') } : {}),
      ...(hint('openWorldHint') !== undefined ? { openWorldHint: hint('openWorldHint') } : {}),
    };
    return {
      name,
      ...(description !== undefined ? { description } : {}),
      ...(inputSchema ? { inputSchema } : {}),
      annotations,
    };
  });
}

/**
 * The text (and structured content) of a `tools/call` result. `isError` becomes an
 * {@link McpToolError}; the text is the server's, third-party text the result stages quote.
 */
export function readToolResult(where: string, res: unknown): { text: string; structured?: unknown } {
  if (!isObj(res))
    throw new McpToolError('mcp.bad_result', 'tools/call answered no result object', { where });
  const content = Array.isArray(res['content']) ? (res['content'] as unknown[]) : [];
  const text = content
    .map((c) => (isObj(c) && c['type'] === 'text' && typeof c['text'] === 'string' ? c['text'] : ''))
    .filter(Boolean)
    .join('\n');
  if (res['isError'] === true) {
    throw new McpToolError('mcp.tool_error', text.slice(0, 500) || 'the MCP tool reported an error', {
      where,
    });
  }
  return res['structuredContent'] === undefined ? { text } : { text, structured: res['structuredContent'] };
}

/** The MCP handshake over `rpc`, then the server's tools as manifests whose calls go back over it. */
export async function importMcpTools(
  server: string,
  rpc: McpRpc,
  policy: McpImportPolicy,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<ToolSpec[]> {
  await rpc.request(
    'initialize',
    { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'twinline', version: '0.1.0' } },
    options,
  );
  await rpc.notify('notifications/initialized', {});
  const listing = readToolListing(server, await rpc.request('tools/list', {}, options));
  return listing.map((l) =>
    mcpToolSpec(server, l, policy, async (args, ctx) => {
      const res = await rpc.request(
        'tools/call',
        { name: l.name, arguments: (args ?? {}) as Record<string, unknown> },
        { timeoutMs: policy.timeoutMs ?? 30_000, ...(ctx.signal ? { signal: ctx.signal } : {}) },
      );
      return readToolResult(`mcp:${server}/${l.name}`, res);
    }),
  );
}

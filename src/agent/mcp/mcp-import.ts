import { importExternal } from '../../core/index.js';
import type { ToolSpec } from '../../tools/index.js';
import { readToolResult } from './jsonrpc-import.js';
import { type McpImportPolicy, mcpToolSpec } from './mcp-manifest.js';

/** An MCP server to import: a child process over stdio, or a streamable HTTP endpoint. */
export type McpServerConfig = McpImportPolicy & {
  readonly name: string;
} & (
    | {
        readonly command: string;
        readonly args?: readonly string[];
        readonly env?: Readonly<Record<string, string>>;
        readonly cwd?: string;
      }
    | { readonly url: string; readonly headers?: Readonly<Record<string, string>> }
  );

/** A connected server: its tools as manifests (register them) and a way to disconnect. */
export interface McpConnection {
  readonly server: string;
  readonly tools: readonly ToolSpec[];
  close(): Promise<void>;
}

/**
 * Connects to an MCP server with the official TypeScript SDK (loaded on demand), lists its tools
 * and turns each into a manifest named `mcp__server__tool`. Calls go through the gateway like any
 * tool; the server is reached only from `execute`, with the call's signal and timeout.
 */
export async function connectMcpServer(config: McpServerConfig): Promise<McpConnection> {
  const { Client } = await importExternal<typeof import('@modelcontextprotocol/sdk/client/index.js')>(
    '@modelcontextprotocol/sdk/client/index.js',
  );
  const client = new Client({ name: 'twinline', version: '0.1.0' });
  if ('command' in config) {
    const { StdioClientTransport, getDefaultEnvironment } = await importExternal<
      typeof import('@modelcontextprotocol/sdk/client/stdio.js')
    >('@modelcontextprotocol/sdk/client/stdio.js');
    await client.connect(
      new StdioClientTransport({
        command: config.command,
        args: [...(config.args ?? [])],
        env: { ...getDefaultEnvironment(), ...config.env },
        stderr: 'pipe',
        ...(config.cwd ? { cwd: config.cwd } : {}),
      }),
    );
  } else {
    const { StreamableHTTPClientTransport } = await importExternal<
      typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js')
    >('@modelcontextprotocol/sdk/client/streamableHttp.js');
    await client.connect(
      new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: { ...config.headers } },
      }),
    );
  }
  const listed = await client.listTools();
  const tools = listed.tools.map((listing) =>
    mcpToolSpec(config.name, listing, config, async (args, ctx) => {
      const res = await client.callTool(
        { name: listing.name, arguments: (args ?? {}) as Record<string, unknown> },
        undefined,
        { signal: ctx.signal, timeout: config.timeoutMs ?? 30_000 },
      );
      return readToolResult(`mcp:${config.name}/${listing.name}`, res);
    }),
  );
  return { server: config.name, tools, close: () => client.close() };
}

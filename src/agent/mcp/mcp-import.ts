import { realpathSync } from 'node:fs';
import { importExternal, type SandboxGrant } from '../../core/index.js';
import type { ToolSpec } from '../../tools/index.js';
import { ProcessSandbox } from '../../tools/workspace/index.js';
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
        /** Run the server in the process sandbox under this profile (its `cwd` is the workspace). */
        readonly sandbox?: McpSandboxConfig;
      }
    | { readonly url: string; readonly headers?: Readonly<Record<string, string>> }
  );

/** The sandbox of a stdio server: a profile, or a profile with its egress domains and read roots. */
export type McpSandboxConfig =
  | 'read-only'
  | 'workspace-write'
  | {
      readonly profile: 'read-only' | 'workspace-write' | 'network';
      readonly allowedDomains?: readonly string[];
      readonly readRoots?: readonly string[];
      /** Share a sandbox (and its one probe) with the shell tool. */
      readonly sandbox?: ProcessSandbox;
    };

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
  let release = async (): Promise<void> => {};
  if ('command' in config) {
    const { StdioClientTransport, getDefaultEnvironment } = await importExternal<
      typeof import('@modelcontextprotocol/sdk/client/stdio.js')
    >('@modelcontextprotocol/sdk/client/stdio.js');
    let argv: readonly string[] = [config.command, ...(config.args ?? [])];
    let env: Record<string, string> = { ...getDefaultEnvironment(), ...config.env };
    if (config.sandbox !== undefined) {
      // A sandbox that cannot be created refuses the server (it is never started unconfined).
      const run = await sandboxedServer(config.sandbox, config.cwd ?? process.cwd(), argv, env);
      argv = run.argv;
      env = { ...run.env };
      release = run.release;
    }
    try {
      await client.connect(
        new StdioClientTransport({
          command: argv[0]!,
          args: argv.slice(1),
          env,
          stderr: 'pipe',
          ...(config.cwd ? { cwd: config.cwd } : {}),
        }),
      );
    } catch (error) {
      await release();
      throw error;
    }
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
  return {
    server: config.name,
    tools,
    close: async () => {
      try {
        await client.close();
      } finally {
        await release();
      }
    },
  };
}

async function sandboxedServer(
  config: McpSandboxConfig,
  cwd: string,
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
) {
  const spec = typeof config === 'string' ? { profile: config } : config;
  const sandbox =
    spec.sandbox ?? new ProcessSandbox({ ...(spec.readRoots ? { readRoots: spec.readRoots } : {}) });
  const grant: SandboxGrant =
    spec.profile === 'network'
      ? { profile: 'network', allowedDomains: spec.allowedDomains ?? [] }
      : { profile: spec.profile };
  return sandbox.prepare(
    grant,
    { root: realpathSync(cwd), extra: [] },
    argv as [string, ...string[]],
    env,
    'mcp',
  );
}

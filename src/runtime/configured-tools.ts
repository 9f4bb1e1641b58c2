import type { McpConnection } from '../agent/mcp/index.js';
import { loadTools, type TwinlineConfig } from '../config/index.js';
import { ConfigError } from '../core/index.js';
import { ToolRegistry } from '../tools/index.js';

/**
 * Registers every tool of a configuration, as start-up does: the tools module's, then those of its
 * MCP servers (connected now; the caller closes them). The first invalid manifest aborts. Needs no
 * store, so dry runs (`twinline check`) use it without loading one.
 */
export async function registerConfiguredTools(
  config: TwinlineConfig,
): Promise<{ registry: ToolRegistry; mcp: McpConnection[] }> {
  const registry = new ToolRegistry().registerAll(await loadTools(config));
  const mcp = await importMcpServers(config);
  registry.registerAll(mcp.flatMap((c) => c.tools));
  return { registry, mcp };
}

/**
 * Connects the config's MCP servers and returns their tools for registration at start-up. The
 * MCP SDK is loaded only when a server is configured. A server that cannot be reached stops
 * start-up with an error naming it: a half-registered tool set would change what agents can do.
 */
export async function importMcpServers(config: TwinlineConfig): Promise<McpConnection[]> {
  const entries = Object.entries(config.mcpServers ?? {});
  if (entries.length === 0) return [];
  const { connectMcpServer } = await import('../agent/mcp/index.js');
  const everyRole = [...new Set(config.users.flatMap((u) => u.roles))];
  const connections: McpConnection[] = [];
  for (const [name, srv] of entries) {
    try {
      connections.push(await connectMcpServer({ ...srv, name, allowedRoles: srv.allowedRoles ?? everyRole }));
    } catch (err) {
      await Promise.allSettled(connections.map((c) => c.close()));
      throw new ConfigError('config.mcp-server', `cannot import MCP server: ${(err as Error).message}`, {
        where: `${config.file}: mcpServers.${name}`,
        cause: err,
      });
    }
  }
  return connections;
}

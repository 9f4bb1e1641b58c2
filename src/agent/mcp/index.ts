export {
  importMcpTools,
  MAX_MCP_TOOLS,
  type McpRpc,
  readToolListing,
  readToolResult,
} from './jsonrpc-import.js';
export { connectMcpServer, type McpConnection, type McpServerConfig } from './mcp-import.js';
export {
  type McpImportPolicy,
  McpToolError,
  type McpToolListing,
  mcpRisk,
  mcpToolName,
  mcpToolSpec,
} from './mcp-manifest.js';
export {
  type McpServerLink,
  McpServerSet,
  type McpServerSource,
  type McpServerState,
  type McpServerStatus,
  type ToolSink,
} from './server-set.js';

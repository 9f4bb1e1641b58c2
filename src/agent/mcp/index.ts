export { connectMcpServer, type McpConnection, type McpServerConfig } from './mcp-import.js';
export {
  type McpImportPolicy,
  McpToolError,
  type McpToolListing,
  mcpRisk,
  mcpToolName,
  mcpToolSpec,
} from './mcp-manifest.js';

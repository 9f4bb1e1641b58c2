/**
 * The Agent Client Protocol door (`twinline acp`): editors drive Twinline sessions over stdio with
 * `@agentclientprotocol/sdk`, through the same runtime and gateway profile as the stream-json engine.
 */
export { runAcpMode } from './acp-mode.js';
export { ACP_MODES, AcpSession, acpToolKind, PERMISSION_OPTIONS } from './acp-session.js';

import type { AccessGrant, AgentAccess } from './runtime-ports.js';

function narrow(grant: AccessGrant, keep: ((tool: string) => boolean) | undefined): AccessGrant {
  if (!keep) return grant;
  return { ...grant, tools: new Set([...grant.tools].filter(keep)) };
}

/**
 * The access port with a session's tool filter applied on top (a host's `allowed_tools` /
 * `disallowed_tools`): every grant, and the access state of every call, keeps only what the filter
 * keeps. It can only remove tools: whatever the filter says, nothing the access layer did not
 * grant comes back.
 */
export function narrowedAccess(
  inner: AgentAccess,
  filter: () => ((tool: string) => boolean) | undefined,
): AgentAccess {
  return {
    grant: (frame, available, trustedFolder) =>
      narrow(inner.grant(frame, available, trustedFolder), filter()),
    assertInteractiveCaller: (agent, tool) => inner.assertInteractiveCaller(agent, tool),
    ...(inner.bubbleApprover
      ? { bubbleApprover: (parent, timeoutMs) => inner.bubbleApprover!(parent, timeoutMs) }
      : {}),
    ...(inner.callExtensions
      ? {
          callExtensions: (grant, frame, approvalMode, route) =>
            inner.callExtensions!(narrow(grant, filter()), frame, approvalMode, route),
        }
      : {}),
  };
}

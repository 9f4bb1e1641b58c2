import { randomUUID } from 'node:crypto';
import type { ApprovalAnswer, ApprovalRequest, CallContext, GatewayResult } from '../gateway/index.js';
import type { AgentFrame } from './agent-frame.js';
import { observedApprover } from './approvers.js';
import { eventSource } from './event-source.js';
import { bindCall } from './frame-context.js';
import type { CallRoute } from './runtime-ports.js';

/**
 * Sends one proposed call through the gateway on behalf of `frame`, with the caller context built
 * from trusted runtime state (identity, agent, approval mode, approver) — nothing from the model
 * except the name and arguments. The gateway call id is fresh, so a model reusing ids cannot
 * confuse calls. Returns the gateway's result; a gateway that throws is reported as a failure.
 */
export async function invokeThroughGateway(
  frame: AgentFrame,
  proposal: { name: string; arguments: unknown },
  signal: AbortSignal,
  route: CallRoute = 'direct',
): Promise<GatewayResult> {
  const rt = frame.runtime;
  const callId = randomUUID();
  const bound = bindCall(frame);
  const ctx: CallContext = { ...callContextFor(frame, signal, route), caller: bound.caller };
  try {
    return await rt.gateway.invoke({ id: callId, name: proposal.name, arguments: proposal.arguments }, ctx);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    rt.bus.emit({
      ...eventSource(frame),
      type: 'error',
      code: 'agent.gateway_failed',
      message,
      where: proposal.name,
    });
    return {
      callId,
      tool: proposal.name,
      status: 'failed',
      decision: { verdict: 'deny', stage: 'gateway', ruleId: 'gateway.error', reason: 'the gateway failed' },
      path: [],
      error: { code: 'agent.gateway_failed', message },
      modelContent: `Tool ${proposal.name} failed.`,
      durationMs: 0,
      auditId: '',
    };
  } finally {
    bound.release();
  }
}

/** The trusted caller context for a call by `frame`. */
export function callContextFor(
  frame: AgentFrame,
  signal: AbortSignal,
  route: CallRoute = 'direct',
): CallContext {
  const rt = frame.runtime;
  const approver = frame.approver
    ? observedApprover(frame.approver, {
        requested: (req: ApprovalRequest) =>
          rt.bus.emit({
            ...eventSource(frame),
            type: 'approval_requested',
            callId: req.call.id,
            tool: req.tool.name,
            reason: req.decision.reason,
            approverAgentId: frame.mode === 'main' || !frame.parent ? frame.id : approverOwner(frame),
          }),
        answered: (req: ApprovalRequest, answer: ApprovalAnswer) =>
          rt.bus.emit({
            ...eventSource(frame),
            type: 'approval_answered',
            callId: req.call.id,
            tool: req.tool.name,
            behavior: answer.behavior,
            ...(answer.message === undefined ? {} : { message: answer.message }),
          }),
      })
    : undefined;
  const extensions = rt.access.callExtensions?.(frame.grant, frame.accessFrame(), frame.approvalMode, route);
  return {
    identity: rt.identity,
    sessionId: rt.sessionId,
    signal,
    agent: frame.ref(),
    domain: rt.domain,
    approvalMode: frame.approvalMode,
    ...(approver ? { approver } : {}),
    ...(rt.cwd === undefined ? {} : { cwd: rt.cwd }),
    ...(rt.thirdPartyText ? { thirdPartyText: rt.thirdPartyText } : {}),
    ...(rt.declaredCapabilities ? { declaredCapabilities: rt.declaredCapabilities } : {}),
    ...(extensions ? { extensions } : {}),
  };
}

/** Whose approver answers a sub-agent's asks: the nearest ancestor for bubble, else itself. */
function approverOwner(frame: AgentFrame): string {
  return frame.approvalMode === 'bubble' && frame.parent ? frame.parent.id : frame.id;
}

import type * as acp from '@agentclientprotocol/sdk';
import { AgentEventEgress, type GatedAgentEvent } from '../agent/event-egress.js';
import type { AgentEvent } from '../agent/events.js';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../gateway/index.js';
import type { EngineRuntime, HostApprovalMode } from '../protocol/index.js';

/** What an ACP editor is asked when the gateway's verdict is `ask`. */
export const PERMISSION_OPTIONS: readonly acp.PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always allow in this session', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Always reject in this session', kind: 'reject_always' },
];

/** Twinline's approval modes as an editor's mode picker shows them. */
export const ACP_MODES: readonly acp.SessionMode[] = [
  { id: 'default', name: 'Default', description: 'Ask before edits, commands and anything not read-only' },
  { id: 'plan', name: 'Plan', description: 'Read only: nothing that changes state runs' },
  {
    id: 'auto-edit',
    name: 'Accept edits',
    description: 'Edits inside the project run; commands ask (trusted folders)',
  },
  { id: 'auto', name: 'Auto', description: 'Low-risk calls run, the rest ask (trusted folders)' },
  {
    id: 'yolo',
    name: 'Bypass permissions',
    description: 'Everything the gateway allows runs (trusted folders)',
  },
];

/** ACP's tool kinds from Twinline's. */
export function acpToolKind(tool: string, kind: string): acp.ToolKind {
  if (tool === 'grep' || tool === 'glob') return 'search';
  if (tool === 'enter_plan_mode' || tool === 'exit_plan_mode') return 'switch_mode';
  switch (kind) {
    case 'read':
      return 'read';
    case 'edit':
      return 'edit';
    case 'shell':
      return 'execute';
    case 'fetch':
      return 'fetch';
    case 'agent':
      return 'think';
    default:
      return 'other';
  }
}

/** A session rule for "always" answers: an exact command for the shell, the tool otherwise. */
function alwaysRule(req: ApprovalRequest): { toolName: string; ruleContent?: string } {
  const args = req.args as { command?: unknown } | null;
  if (req.tool.name === 'shell' && typeof args?.command === 'string' && !/[*()]/.test(args.command)) {
    return { toolName: 'shell', ruleContent: args.command };
  }
  return { toolName: req.tool.name };
}

export interface AcpSessionOptions {
  readonly id: string;
  readonly cwd: string;
  readonly runtime: EngineRuntime;
  readonly client: acp.AgentContext;
  /** The trust gate for a mode the editor selects (throws naming the mode and the folder). */
  readonly modeGate: (request: { readonly name: string; readonly source: string }) => Promise<void>;
  readonly mode: HostApprovalMode;
  /** Called after each turn with the conversation, to keep the session loadable. */
  readonly persist: (session: AcpSession) => void;
}

/**
 * One ACP session over the agent runtime — the same gateway profile, modes, rules, trust gate,
 * egress gate and audit as the stream-json engine. Prompt turns stream as `session/update`; every
 * `ask` of the gateway becomes `session/request_permission`; a cancel aborts the turn.
 */
export class AcpSession {
  readonly id: string;
  readonly cwd: string;
  mode: HostApprovalMode;
  #turn: AbortController | undefined;
  readonly #opts: AcpSessionOptions;

  constructor(options: AcpSessionOptions) {
    this.#opts = options;
    this.id = options.id;
    this.cwd = options.cwd;
    this.mode = options.mode;
  }

  get runtime(): EngineRuntime {
    return this.#opts.runtime;
  }

  modes(): acp.SessionModeState {
    return { currentModeId: this.mode, availableModes: [...ACP_MODES] };
  }

  async setMode(modeId: string): Promise<void> {
    const mode = ACP_MODES.find((m) => m.id === modeId)?.id as HostApprovalMode | undefined;
    if (!mode) throw new Error(`unknown mode ${modeId}; available: ${ACP_MODES.map((m) => m.id).join(', ')}`);
    if (mode === 'auto-edit' || mode === 'auto' || mode === 'yolo') {
      await this.#opts.modeGate({ name: mode, source: 'session/set_mode' });
    }
    this.runtime.setApprovalMode(mode);
    this.mode = mode;
    await this.#update({ sessionUpdate: 'current_mode_update', currentModeId: mode });
  }

  cancel(): void {
    this.#turn?.abort();
  }

  async #update(update: acp.SessionUpdate): Promise<void> {
    await this.#opts.client.notify('session/update', { sessionId: this.id, update });
  }

  /** Runs one prompt turn; resolves with its stop reason. */
  async prompt(blocks: readonly acp.ContentBlock[]): Promise<acp.StopReason> {
    if (this.#turn) throw new Error('a prompt is already running in this session');
    const turn = new AbortController();
    this.#turn = turn;
    const runtime = this.runtime;
    const gate = runtime.output();
    const prompt = blocks
      .map((b) => (b.type === 'text' ? b.text : b.type === 'resource_link' ? `[${b.name}](${b.uri})` : ''))
      .filter(Boolean)
      .join('\n');
    // Updates are sent in order: each waits for the one before it.
    let chain: Promise<void> = Promise.resolve();
    const send = (u: acp.SessionUpdate): void => {
      chain = chain.then(() => this.#update(u)).catch(() => undefined);
    };
    let status: string | undefined;
    let blocked = false;
    const toolIds = new Map<unknown, string>();
    const egress = new AgentEventEgress(gate, (g: GatedAgentEvent) => {
      if (g.depth !== 0 && g.type !== 'output_blocked') return;
      switch (g.type) {
        case 'text_delta':
          if (g.text) send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: g.text } });
          return;
        case 'output_blocked':
          blocked = true;
          send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: g.text } });
          turn.abort();
          return;
        case 'tool_proposed':
          send({
            sessionUpdate: 'tool_call',
            toolCallId: g.callId,
            title: g.tool,
            kind: acpToolKind(g.tool, runtime.toolKind(g.tool)),
            status: 'pending',
            rawInput: g.arguments ?? {},
          });
          return;
        case 'tool_result':
          send({
            sessionUpdate: 'tool_call_update',
            toolCallId: g.callId,
            status: g.status === 'executed' ? 'completed' : 'failed',
            content: [{ type: 'content', content: { type: 'text', text: g.content } }],
          });
          return;
        case 'result':
          status = g.status;
          return;
        default:
          return;
      }
    });
    const onEvent = (e: AgentEvent): void => {
      if (
        e.type === 'tool_proposed' &&
        e.depth === 0 &&
        typeof e.arguments === 'object' &&
        e.arguments !== null
      ) {
        toolIds.set(e.arguments, e.callId);
      }
      egress.accept(e);
    };
    const approver = this.#approver(
      turn.signal,
      (req) => toolIds.get(req.call.arguments) ?? req.call.id,
      gate,
      (id) => send({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress' }),
    );
    try {
      await runtime.run(
        { prompt, signal: turn.signal, approver, approvalMode: this.mode, maxTurns: undefined },
        onEvent,
      );
      if (!blocked) egress.end();
    } finally {
      this.#turn = undefined;
      await chain;
      this.#opts.persist(this);
    }
    if (blocked) return 'refusal';
    if (turn.signal.aborted || status === 'interrupted') return 'cancelled';
    if (status === 'max_turns') return 'max_turn_requests';
    if (status === 'budget_exceeded') return 'max_tokens';
    return 'end_turn';
  }

  /** Every `ask` goes to the editor as `session/request_permission`; anything but an allow denies. */
  #approver(
    turnSignal: AbortSignal,
    toolCallId: (req: ApprovalRequest) => string,
    gate: ReturnType<EngineRuntime['output']>,
    onAllowed: (toolCallId: string) => void,
  ): Approver {
    return {
      request: async (req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> => {
        let response: acp.RequestPermissionResponse;
        try {
          response = await this.#opts.client.request(
            'session/request_permission',
            {
              sessionId: this.id,
              toolCall: {
                toolCallId: toolCallId(req),
                title: req.tool.name,
                kind: acpToolKind(req.tool.name, this.runtime.toolKind(req.tool.name)),
                status: 'pending',
                rawInput: gate.value(req.args) as Record<string, unknown>,
              },
              options: [...PERMISSION_OPTIONS],
            },
            { cancellationSignal: AbortSignal.any([signal, turnSignal]), stopWaitingOnCancel: true },
          );
        } catch (err) {
          return {
            behavior: 'deny',
            message: `Permission request failed: ${err instanceof Error ? err.message : String(err)}`,
          };
        }
        const outcome = response.outcome;
        if (outcome.outcome !== 'selected')
          return { behavior: 'deny', message: 'The editor cancelled the request' };
        const chosen = PERMISSION_OPTIONS.find((o) => o.optionId === outcome.optionId);
        if (!chosen)
          return { behavior: 'deny', message: `The editor chose an unknown option ${outcome.optionId}` };
        if (chosen.kind === 'allow_always' || chosen.kind === 'reject_always') {
          // Kept for the session as a permission rule, planned like any host's "always".
          this.runtime.controls.applyPermissionUpdates(
            [
              {
                type: 'addRules',
                rules: [alwaysRule(req)],
                behavior: chosen.kind === 'allow_always' ? 'allow' : 'deny',
                destination: 'session',
              },
            ],
            `acp-${req.call.id}`,
          );
        }
        if (!chosen.kind.startsWith('allow'))
          return { behavior: 'deny', message: 'The editor rejected the call' };
        onAllowed(toolCallId(req));
        return { behavior: 'allow' };
      },
    };
  }
}

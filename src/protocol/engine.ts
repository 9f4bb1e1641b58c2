import { randomUUID } from 'node:crypto';
import type { PermissionUpdate } from '../access/permission-updates.js';
import { AgentEventEgress, type GatedAgentEvent } from '../agent/event-egress.js';
import type { AgentEvent } from '../agent/events.js';
import type { ApprovalRequest } from '../gateway/index.js';
import type { StreamJsonOptions } from './argv.js';
import { ControlBus } from './control-bus.js';
import {
  type AssistantBlock,
  assistantMessage,
  initializeResponse,
  interruptedMarker,
  type PermissionDenial,
  permissionSuggestions,
  type ResultSubtype,
  replies,
  resultMessage,
  type SessionView,
  streamEvent,
  systemInit,
  systemNotice,
  systemProtocolError,
  systemStatus,
  toolResultMessage,
} from './dialect.js';
import { PROTOCOL_ERROR_CODES, ProtocolError } from './errors.js';
import { DenyAllApprover, HostApprover } from './host-approver.js';
import type { HostHooks } from './host-hooks.js';
import { classifyHostLine, classifyOversizedLine, type HostLine } from './host-line.js';
import { DEFAULT_MAX_LINE_CHARS, encodeLine, LineDecoder } from './ndjson.js';
import { type ResolvedMode, resolvePermissionMode, validPermissionModeNames } from './permission-modes.js';
import { applyRunVariable, type RunParameters, runVariableName } from './run-variables.js';
import type { EngineRuntime, EngineRuntimeFactory } from './runtime.js';
import type { ControlRequestEnvelope, HostRequestSubtype, SeededFile, UserMessage } from './schemas.js';
import { sdkServerNames } from './sdk-mcp.js';
import { checkHostRequest, HOST_REQUEST_SUBTYPES } from './wire-checks.js';

export interface EngineOptions {
  readonly args: StreamJsonOptions;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Writes one complete NDJSON line to the host. Throws when the host is gone. */
  readonly write: (line: string) => void;
  /** Diagnostics (stderr). Never the protocol channel. */
  readonly log: (message: string) => void;
  readonly createRuntime: EngineRuntimeFactory;
  /** How long the host has to answer a `can_use_tool` (default 60 s, like both SDKs). */
  readonly permissionTimeoutMs?: number;
  readonly maxLineChars?: number;
  readonly version: string;
  /** Called once when the engine is done (stdin closed and the queue drained). */
  readonly onDone: (exitCode: number) => void;
  /**
   * The trust gate for a privileged mode a host selects (`set_permission_mode` auto-edit, auto,
   * yolo, acceptEdits, bypassPermissions): rejects with a `TrustGateError` naming the mode and the
   * folder when the working folder is not trusted. Absent → privileged modes are refused. The
   * initial `--permission-mode` is gated before the engine is built (`runStdioMode`).
   */
  readonly modeGate?: (request: { readonly name: string; readonly source: string }) => Promise<void>;
}

/** Host modes that run calls without a person confirming them: they need a trusted folder. */
const PRIVILEGED_HOST_MODES: ReadonlySet<string> = new Set(['auto-edit', 'auto', 'yolo']);

/** `error_code` of a control error response refusing a mode the folder's trust does not allow. */
export const TRUST_GATE_ERROR_CODE = 'trust_gate';

/** A mode the trust gate refused; answered with `error_code: trust_gate`. */
class ModeRefusedError extends Error {}

/** The `error_code` of a control error answer, for errors that have one. */
function errorCodeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown }).code;
  if (err instanceof ModeRefusedError || code === 'access.trust-gate') return TRUST_GATE_ERROR_CODE;
  if (code === 'protocol.invalid_variable') return 'invalid_variable';
  return undefined;
}

/** `apply_flag_settings` keys Twinline maps (the rest are refused, naming these). */
const FLAG_SETTINGS_KEYS = ['model', 'permissions.deny', 'permissions.ask', 'permissions.defaultMode'];

/** `Bash(npm test)` → `{ toolName: 'Bash', ruleContent: 'npm test' }`. */
function ruleValue(text: string): { toolName: string; ruleContent?: string } {
  const open = text.indexOf('(');
  if (open > 0 && text.endsWith(')')) {
    return { toolName: text.slice(0, open), ruleContent: text.slice(open + 1, -1) };
  }
  return { toolName: text };
}

/** Remembered host request ids, to refuse duplicates (bounded; old ids are forgotten). */
const SEEN_ID_MEMORY = 4096;

interface RunningTurn {
  readonly controller: AbortController;
  interruptedBy?: string;
}

/**
 * The stream-json engine: reads host lines, answers control requests, queues user turns and runs
 * them one at a time through the agent runtime, writing messages in the host's dialect. Never
 * executes anything from a line that failed validation; never stops on a bad line.
 */
export class StreamJsonEngine {
  readonly bus: ControlBus;
  private readonly decoder: LineDecoder;
  private readonly maxLineChars: number;
  private readonly sessionId: string;
  private mode: ResolvedMode;
  private model: string;
  private permissionTimeoutMs: number;
  private disallowedFromInitialize: string[] = [];
  private readonly readCache = new Map<string, SeededFile>();
  private runtimePromise: Promise<EngineRuntime> | undefined;
  private runtime: EngineRuntime | undefined;
  private pendingModel: { value: string | undefined } | undefined;
  private readonly queue: UserMessage[] = [];
  private current: RunningTurn | undefined;
  private draining = false;
  private inputEnded = false;
  private done = false;
  private readonly inFlight = new Map<string, AbortController>();
  private readonly seenIds = new Set<string>();
  private totalTokens = 0;
  /** `initialize.hooks` as the host sent it; read when the runtime is built. */
  private hooksRequested: unknown;
  private hooks: HostHooks | undefined;
  private sdkServers: string[] = [];
  private initializeProblems: string[] = [];
  private partial: boolean;
  /** The run parameters after the host's updates (`set_variable`); undefined until the first. */
  private params: RunParameters | undefined;

  constructor(private readonly opts: EngineOptions) {
    this.maxLineChars = opts.maxLineChars ?? DEFAULT_MAX_LINE_CHARS;
    this.decoder = new LineDecoder(this.maxLineChars);
    // Qwen's SDK picks the session id and stamps it everywhere: adopt it (docs/protocol.md, "Dialects").
    this.sessionId = opts.args.sessionId ?? randomUUID();
    this.model = opts.args.model ?? opts.env['TWINLINE_MODEL'] ?? 'default';
    this.permissionTimeoutMs = opts.permissionTimeoutMs ?? 60_000;
    this.partial = opts.args.includePartialMessages;
    const requested = opts.args.permissionMode ?? 'default';
    this.mode = resolvePermissionMode(requested) ?? {
      approvalMode: 'default',
      reported: 'default',
      neverPrompt: false,
    };
    if (!resolvePermissionMode(requested)) {
      opts.log(`unknown permission mode "${requested}", using default`);
    }
    this.bus = new ControlBus({
      send: (env) => this.send(env),
      defaultTimeoutMs: this.permissionTimeoutMs,
      log: opts.log,
    });
  }

  /** Number of turns waiting behind the running one. */
  get queuedTurns(): number {
    return this.queue.length;
  }

  /** Feeds text read from the host. */
  feed(chunk: string): void {
    for (const d of this.decoder.push(chunk)) {
      this.dispatch(
        d.kind === 'line'
          ? classifyHostLine(d.text)
          : classifyOversizedLine(d.prefix, d.length, this.maxLineChars),
      );
    }
  }

  /**
   * The host closed its side. Pending permission requests are denied (fail closed) — they can no
   * longer be answered — but queued turns still run (a host may close right after its last prompt).
   */
  endInput(): void {
    if (this.inputEnded) return;
    for (const d of this.decoder.end()) {
      this.dispatch(
        d.kind === 'line'
          ? classifyHostLine(d.text)
          : classifyOversizedLine(d.prefix, d.length, this.maxLineChars),
      );
    }
    this.inputEnded = true;
    this.bus.close(new ProtocolError(PROTOCOL_ERROR_CODES.hostGone, 'Input closed'));
    for (const c of this.inFlight.values()) c.abort();
    void this.drain();
  }

  /** The host can no longer read (broken pipe) or asked us to stop: abort everything and finish. */
  terminate(reason: string): void {
    this.queue.length = 0;
    if (this.current) {
      this.current.interruptedBy = reason;
      this.current.controller.abort();
    }
    this.endInput();
  }

  private view(): SessionView {
    return {
      dialect: this.opts.args.dialect,
      sessionId: this.sessionId,
      cwd: this.opts.cwd,
      model: this.model,
      permissionMode: this.mode.reported,
      tools: this.runtime?.toolNames() ?? [],
      version: this.opts.version,
      mcpServers: this.runtime?.controls.mcpStatus().map((m) => ({ name: m.name, status: m.status })) ?? [],
    };
  }

  private send(message: unknown): void {
    this.opts.write(encodeLine(message));
  }

  /** Writes a data message; a host that cannot read any more ends the session. */
  private emit(message: unknown): void {
    if (this.done) return;
    try {
      this.send(message);
    } catch (err) {
      this.opts.log(`cannot write to host: ${err instanceof Error ? err.message : String(err)}`);
      this.terminate('host stopped reading');
    }
  }

  private respond(requestId: string, payload: unknown): void {
    this.inFlight.delete(requestId);
    this.emit({
      type: 'control_response',
      response: { subtype: 'success', request_id: requestId, response: payload },
    });
  }

  private respondError(requestId: string, message: string, errorCode?: string): void {
    this.inFlight.delete(requestId);
    this.emit({
      type: 'control_response',
      response: {
        subtype: 'error',
        request_id: requestId,
        error: message,
        ...(errorCode ? { error_code: errorCode } : {}),
      },
    });
  }

  private dispatch(line: HostLine): void {
    switch (line.kind) {
      case 'ignore':
        return;
      case 'user':
        this.queue.push(line.message);
        void this.drain();
        return;
      case 'control_request':
        this.onControlRequest(line.envelope);
        return;
      case 'control_response':
        this.bus.handleResponse(line.envelope);
        return;
      case 'control_cancel': {
        const c = this.inFlight.get(line.requestId);
        if (c) {
          c.abort();
          this.inFlight.delete(line.requestId);
        } else
          this.opts.log(`control_cancel_request for unknown request_id ${JSON.stringify(line.requestId)}`);
        return;
      }
      case 'invalid':
        this.onInvalid(line);
        return;
    }
  }

  private onInvalid(line: Extract<HostLine, { kind: 'invalid' }>): void {
    this.opts.log(`rejected host line: ${line.reason}`);
    if (line.claimedResponse && line.requestId !== undefined) {
      // A garbled answer to one of our requests: that request fails (a permission is denied).
      const error = new ProtocolError(line.code, line.reason, { where: `response ${line.requestId}` });
      if (this.bus.fail(line.requestId, error)) return;
    }
    if (line.requestId !== undefined && !line.claimedResponse) {
      this.respondError(line.requestId, line.reason, 'invalid_request');
      return;
    }
    this.emit(systemProtocolError(this.view(), line.code, line.reason));
  }

  private onControlRequest(envelope: ControlRequestEnvelope): void {
    const id = envelope.request_id;
    if (this.inFlight.has(id) || this.seenIds.has(id)) {
      this.opts.log(`duplicate request_id ${JSON.stringify(id)}`);
      this.emit({
        type: 'control_response',
        response: {
          subtype: 'error',
          request_id: id,
          error: `Duplicate request_id: ${id}`,
          error_code: 'duplicate_request',
        },
      });
      return;
    }
    this.seenIds.add(id);
    if (this.seenIds.size > SEEN_ID_MEMORY) {
      const oldest = this.seenIds.values().next().value;
      if (oldest !== undefined) this.seenIds.delete(oldest);
    }
    const subtype = envelope.request.subtype;
    if (!HOST_REQUEST_SUBTYPES.has(subtype)) {
      this.respondError(
        id,
        `Unsupported control request subtype: ${subtype.slice(0, 128)}`,
        'unsupported_request',
      );
      return;
    }
    const problem = checkHostRequest(subtype, envelope.request);
    if (problem) {
      this.respondError(id, `Invalid ${subtype} request: ${problem}`, 'invalid_request');
      return;
    }
    const controller = new AbortController();
    this.inFlight.set(id, controller);
    this.handleRequest(
      id,
      envelope.request as Record<string, unknown> & { subtype: HostRequestSubtype },
      controller.signal,
    )
      .then((payload) => {
        if (!controller.signal.aborted) this.respond(id, payload);
        else this.inFlight.delete(id);
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted)
          this.respondError(id, err instanceof Error ? err.message : String(err), errorCodeOf(err));
        else this.inFlight.delete(id);
      });
  }

  private async handleRequest(
    id: string,
    req: Record<string, unknown> & { subtype: HostRequestSubtype },
    _signal: AbortSignal,
  ): Promise<unknown> {
    const d = this.opts.args.dialect;
    switch (req.subtype) {
      case 'initialize': {
        const disallowed = req['disallowedTools'];
        if (Array.isArray(disallowed)) this.disallowedFromInitialize = disallowed.map(String);
        const timeout = req['timeout'] as { canUseTool?: number } | undefined;
        // Never wait less than the host itself would (docs/protocol.md, "Running it"); cap at 10 minutes.
        if (timeout?.canUseTool)
          this.permissionTimeoutMs = Math.min(Math.max(timeout.canUseTool, 1000), 600_000);
        const hooks = req['hooks'];
        const hasHooks = typeof hooks === 'object' && hooks !== null && Object.keys(hooks).length > 0;
        if (hasHooks) this.hooksRequested = hooks;
        const sdk = sdkServerNames(req['sdkMcpServers']);
        this.sdkServers = sdk.names;
        this.initializeProblems.push(...sdk.problems);
        for (const p of sdk.problems) this.opts.log(p);
        const payload = initializeResponse(this.view(), {
          disallowedTools: Array.isArray(disallowed),
          hooks: hasHooks && d === 'claude',
          problems: this.initializeProblems,
        });
        // Warm the runtime after answering, so `initialize` itself stays fast.
        setImmediate(() => void this.loadRuntime().catch(() => undefined));
        return payload;
      }
      case 'interrupt': {
        if (req['cancel_queued'] === true) this.queue.length = 0;
        if (this.current) {
          this.current.interruptedBy = 'Request interrupted by user';
          this.current.controller.abort();
        }
        return replies.interrupt(d);
      }
      case 'set_permission_mode': {
        const resolved = await this.gateMode(String(req['mode']), 'set_permission_mode');
        this.setMode(resolved);
        return replies.setPermissionMode(d, resolved.reported);
      }
      case 'set_variable':
        return this.setVariable(id, String(req['name']), req['value']);
      case 'apply_flag_settings':
        return this.applyFlagSettings(id, req['settings'] as Record<string, unknown>);
      case 'mcp_set_servers': {
        const rt = await this.loadRuntime();
        const result = await rt.controls.setServers(req['servers'] as Record<string, unknown>);
        rt.controls.record({
          action: 'mcp_set_servers',
          requestId: id,
          allowed: true,
          reason: 'the host set its MCP servers',
          summary: `added ${result.added.join(', ') || '-'}; removed ${result.removed.join(', ') || '-'}; failed ${Object.keys(result.errors).join(', ') || '-'}`,
          detail: Object.keys(req['servers'] as object),
        });
        return result;
      }
      case 'mcp_toggle':
      case 'mcp_reconnect': {
        const rt = await this.loadRuntime();
        const name = String(req['serverName']);
        const status =
          req.subtype === 'mcp_toggle'
            ? await rt.controls.servers.toggle(name, req['enabled'] === true)
            : await rt.controls.servers.reconnect(name);
        rt.controls.record({
          action: req.subtype,
          requestId: id,
          allowed: true,
          reason: `the host ${req.subtype === 'mcp_toggle' ? (req['enabled'] ? 'enabled' : 'disabled') : 'reconnected'} ${name}`,
          summary: `${name}: ${status.status}`,
          detail: { name },
        });
        return { name, status: status.status, ...(status.error ? { error: status.error } : {}) };
      }
      case 'set_model': {
        const requested =
          typeof req['model'] === 'string' && req['model'] ? (req['model'] as string) : undefined;
        const runtime = this.runtime;
        if (runtime) this.model = await runtime.setModel(requested);
        else {
          // the runtime may be loading with the old model: apply this once it is up
          this.pendingModel = { value: requested };
          this.model = requested ?? this.opts.args.model ?? 'default';
        }
        return replies.setModel(d, this.model);
      }
      case 'seed_read_state': {
        const files: SeededFile[] = Array.isArray(req['files'])
          ? (req['files'] as SeededFile[])
          : [{ path: String(req['path']), mtime: Number(req['mtime']) }];
        for (const f of files) this.readCache.set(f.path, f);
        this.runtime?.seedReadState(files);
        return { seeded: files.length };
      }
      case 'mcp_status':
      case 'mcp_server_status': {
        const rt = await this.loadRuntime();
        return replies.mcpStatus(req.subtype, rt.controls.mcpStatus());
      }
      case 'supported_commands':
        return replies.supportedCommands();
      case 'get_context_usage':
        return replies.contextUsage(this.model, this.totalTokens);
      case 'get_available_models':
        return replies.availableModels(this.model);
      case 'set_max_thinking_tokens':
        return {};
      case 'set_effort':
        return { applied: false, override: null, reason: 'Twinline does not set reasoning effort' };
      case 'mcp_message': {
        // A message the host's SDK server sends on its own: a changed tool list is listed again.
        const message = req['message'] as { method?: unknown } | null;
        const server = String(req['server_name']);
        if (
          message?.method === 'notifications/tools/list_changed' &&
          this.runtime?.controls.servers.has(server)
        ) {
          void this.runtime.controls.servers.reconnect(server).catch(() => undefined);
        }
        return {};
      }
      case 'stop_task': {
        const rt = await this.loadRuntime();
        const taskId = String(req['task_id']);
        const stopped = rt.controls.stopTask(taskId);
        rt.controls.record({
          action: 'stop_task',
          requestId: id,
          allowed: stopped,
          reason: stopped ? 'the host stopped a background task' : 'no such task is running',
          summary: taskId,
          detail: { taskId },
        });
        if (!stopped) throw new Error(`No task ${taskId} is running`);
        return {};
      }
      default:
        throw new Error(
          `Unsupported control request subtype: ${String((req as { subtype: string }).subtype)} (${id})`,
        );
    }
  }

  /** The host's hooks, built (and their module loaded) only when it registered some. */
  private async buildHooks(): Promise<HostHooks | undefined> {
    if (this.hooksRequested === undefined || this.opts.args.dialect !== 'claude') return undefined;
    const [{ HostHooks, readHookRegistrations }, { TOOL_NAME_ALIASES }] = await Promise.all([
      import('./host-hooks.js'),
      import('../access/index.js'),
    ]);
    const aliases = Object.entries(TOOL_NAME_ALIASES);
    const { registrations, problems } = readHookRegistrations(this.hooksRequested, (tool) => [
      tool,
      ...aliases.filter(([, canonical]) => canonical === tool).map(([alias]) => alias),
    ]);
    for (const p of problems) this.opts.log(p);
    this.initializeProblems.push(...problems);
    this.hooks = new HostHooks(this.bus, registrations, {
      sessionId: this.sessionId,
      cwd: this.opts.cwd,
      permissionMode: () => this.mode.reported,
    });
    return this.hooks;
  }

  /**
   * Resolves a mode a host asks for and passes it through the trust gate: privileged modes need a
   * trusted folder. Throws an error naming the valid modes, or a `ModeRefusedError`.
   */
  private async gateMode(name: string, source: string): Promise<ResolvedMode> {
    const resolved = resolvePermissionMode(name);
    if (!resolved) {
      throw new Error(
        `Invalid permission mode: ${name}. Valid values are: ${validPermissionModeNames().join(', ')}`,
      );
    }
    if (PRIVILEGED_HOST_MODES.has(resolved.approvalMode)) {
      if (!this.opts.modeGate) {
        throw new ModeRefusedError(
          `Permission mode ${name} needs a trusted folder; no trust gate is configured`,
        );
      }
      try {
        await this.opts.modeGate({ name, source });
      } catch (err) {
        throw new ModeRefusedError(err instanceof Error ? err.message : String(err));
      }
    }
    return resolved;
  }

  /** Switches to a mode that passed `gateMode`; the host hears `system/status` after the answer. */
  private setMode(resolved: ResolvedMode): void {
    // The runtime's session gates too; on a refusal the engine keeps its current mode.
    this.runtime?.setApprovalMode(resolved.approvalMode);
    this.mode = resolved;
    const status = systemStatus(this.view());
    setImmediate(() => {
      if (status) this.emit(status);
    });
  }

  /** The run parameters now: the host's updates, else the session's own. */
  private runParameters(rt: EngineRuntime): RunParameters {
    if (this.params) return this.params;
    const start = rt.startLimits();
    return {
      maxTurns: start.maxTurns,
      maxTokens: start.maxTokens,
      maxCostUsd: start.maxCostUsd,
      allowedTools: undefined,
      disallowedTools: [],
      permissionTimeoutMs: this.permissionTimeoutMs,
      includePartialMessages: this.partial,
    };
  }

  /**
   * `set_variable`: one run parameter, narrowed within what the session allows, applied at once
   * (the running turn's budget and tool filter too), audited and announced as `system/variable_changed`.
   */
  private async setVariable(id: string, name: string, value: unknown): Promise<unknown> {
    const rt = await this.loadRuntime();
    const change = this.tryVariable(rt, id, this.runParameters(rt), name, value);
    this.commitParameters(rt, change.next);
    this.announceVariable(rt, id, change);
    return { name: change.name, value: change.value, previous: change.previous };
  }

  private tryVariable(
    rt: EngineRuntime,
    id: string,
    params: RunParameters,
    name: string,
    value: unknown,
  ): ReturnType<typeof applyRunVariable> {
    try {
      return applyRunVariable(params, rt.controls.ceilings(rt.startLimits()), name, value, rt.canonicalTool);
    } catch (err) {
      rt.controls.record({
        action: 'set_variable',
        requestId: id,
        allowed: false,
        reason: err instanceof Error ? err.message : String(err),
        summary: `${name.slice(0, 64)} refused`,
        detail: { name, value },
      });
      throw err;
    }
  }

  private commitParameters(rt: EngineRuntime, next: RunParameters): void {
    this.params = next;
    this.permissionTimeoutMs = next.permissionTimeoutMs;
    this.partial = next.includePartialMessages;
    rt.controls.applyRunParameters(next);
  }

  private announceVariable(rt: EngineRuntime, id: string, change: ReturnType<typeof applyRunVariable>): void {
    rt.controls.record({
      action: 'set_variable',
      requestId: id,
      allowed: true,
      reason: "within the session's limits and granted tools",
      summary: `${change.name}: ${JSON.stringify(change.previous)} → ${JSON.stringify(change.value)}`,
      detail: { name: change.name, value: change.value },
    });
    const notice = systemNotice(this.view(), 'variable_changed', {
      name: change.name,
      previous: change.previous,
      value: change.value,
    });
    setImmediate(() => this.emit(notice));
  }

  /**
   * The Claude dialect's `apply_flag_settings`, mapped where it means something here: `model`,
   * `permissions.deny`/`ask` (session rules: they only narrow), `permissions.defaultMode` (the
   * trust-gated mode switch), and any run parameter by name. Anything else — including
   * `permissions.allow`, which would widen — refuses the whole call; nothing of it applies.
   */
  private async applyFlagSettings(id: string, settings: Record<string, unknown>): Promise<unknown> {
    const rt = await this.loadRuntime();
    const unsupported: string[] = [];
    let params = this.runParameters(rt);
    const changes: ReturnType<typeof applyRunVariable>[] = [];
    const rules: PermissionUpdate[] = [];
    let mode: ResolvedMode | undefined;
    let model: { value: string | undefined } | undefined;
    for (const [key, value] of Object.entries(settings)) {
      if (key === 'model') {
        if (value !== null && typeof value !== 'string')
          throw new Error('apply_flag_settings: model must be a string or null');
        model = { value: value || undefined };
      } else if (key === 'permissions') {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          throw new Error('apply_flag_settings: permissions must be an object');
        }
        for (const [pk, pv] of Object.entries(value)) {
          if (pk === 'deny' || pk === 'ask') {
            if (!Array.isArray(pv) || pv.some((r) => typeof r !== 'string' || !r)) {
              throw new Error(`apply_flag_settings: permissions.${pk} must be a list of rules`);
            }
            rules.push({ type: 'addRules', rules: pv.map(ruleValue), behavior: pk, destination: 'session' });
          } else if (pk === 'defaultMode') {
            mode = await this.gateMode(String(pv), 'apply_flag_settings');
          } else unsupported.push(`permissions.${pk}`);
        }
      } else {
        let canonical: string | undefined;
        try {
          canonical = runVariableName(key);
        } catch {
          unsupported.push(key);
        }
        if (canonical) {
          const change = this.tryVariable(rt, id, params, key, value);
          params = change.next;
          changes.push(change);
        }
      }
    }
    if (unsupported.length > 0) {
      throw new Error(
        `apply_flag_settings: unsupported setting(s) ${unsupported.join(', ')}; supported: ${[...FLAG_SETTINGS_KEYS, 'the run parameters of set_variable'].join(', ')} (nothing was applied)`,
      );
    }
    if (changes.length > 0) {
      this.commitParameters(rt, params);
      for (const c of changes) this.announceVariable(rt, id, c);
    }
    if (rules.length > 0) this.announcePermissions(rt.controls.applyPermissionUpdates(rules, id));
    if (mode) this.setMode(mode);
    if (model) this.model = await rt.setModel(model.value);
    return {};
  }

  /** A host's "always allow" from a permission answer: applied, audited, announced. */
  private onPermissionUpdates(
    rt: EngineRuntime,
    updates: readonly PermissionUpdate[],
    requestId: string,
  ): void {
    const outcomes = rt.controls.applyPermissionUpdates(updates, requestId);
    for (const o of outcomes) {
      if (!o.mode || o.mode.persistedOnly) continue;
      const resolved = resolvePermissionMode(o.mode.name);
      if (resolved) {
        try {
          this.setMode(resolved);
        } catch (err) {
          this.opts.log(
            `mode from updatedPermissions refused: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      }
    }
    this.announcePermissions(outcomes);
  }

  private announcePermissions(outcomes: readonly unknown[]): void {
    const notice = systemNotice(this.view(), 'permissions_updated', { updates: outcomes });
    setImmediate(() => this.emit(notice));
  }

  private loadRuntime(): Promise<EngineRuntime> {
    if (!this.runtimePromise) {
      const a = this.opts.args;
      this.runtimePromise = this.buildHooks().then((hooks) =>
        this.opts.createRuntime({
          cwd: this.opts.cwd,
          sessionId: this.sessionId,
          model: this.model === 'default' ? a.model : this.model,
          allowedTools: a.allowedTools,
          disallowedTools: [...a.disallowedTools, ...this.disallowedFromInitialize],
          systemPrompt: a.systemPrompt,
          appendSystemPrompt: a.appendSystemPrompt,
          maxTurns: a.maxTurns,
          approvalMode: this.mode.approvalMode,
          env: this.opts.env,
          log: this.opts.log,
          bus: this.bus,
          ...(hooks ? { hooks: { tools: hooks, agent: hooks } } : {}),
          ...(this.sdkServers.length ? { sdkMcpServers: this.sdkServers } : {}),
        }),
      );
      this.runtimePromise = this.runtimePromise.then(async (rt) => {
        const pending = this.pendingModel;
        this.pendingModel = undefined;
        this.model = pending ? await rt.setModel(pending.value) : rt.model();
        this.runtime = rt;
        if (this.readCache.size > 0) rt.seedReadState([...this.readCache.values()]);
        return rt;
      });
      this.runtimePromise.catch((err: unknown) => {
        this.opts.log(`runtime failed to start: ${err instanceof Error ? err.message : String(err)}`);
      });
    }
    return this.runtimePromise;
  }

  private async drain(): Promise<void> {
    if (this.draining || this.done) return;
    this.draining = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        await this.runTurn(next);
      }
    } finally {
      this.draining = false;
    }
    if (this.inputEnded && this.queue.length === 0 && !this.done) await this.finish();
  }

  private async finish(): Promise<void> {
    if (this.done) return;
    this.done = true;
    this.bus.close();
    try {
      await this.runtime?.close();
    } catch (err) {
      this.opts.log(`runtime close failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.opts.onDone(0);
  }

  private async runTurn(message: UserMessage): Promise<void> {
    const started = Date.now();
    const turn: RunningTurn = { controller: new AbortController() };
    this.current = turn;
    const denials: PermissionDenial[] = [];
    // The gateway gives each call a fresh id; the host knows the model's id from the assistant's
    // tool_use block. The runtime passes the model's arguments object through, so map by it.
    const toolUseIds = new Map<unknown, string>();
    const errors: string[] = [];
    let subtype: ResultSubtype = 'success';
    let finalText: string | undefined;
    let numTurns = 0;
    let usage = { inputTokens: 0, outputTokens: 0 };
    let apiMs = 0;
    // The output gate stopped the turn's text: the turn ends with this, and nothing after it.
    let blockedBy: string | undefined;
    try {
      // Hosts wait for `system/init` as the sign the turn started: write it before the runtime
      // has finished loading (its tool list is complete once the runtime is up).
      const loading = this.loadRuntime();
      this.emit(systemInit(this.view()));
      const runtime = await loading;
      // Everything below that carries model or tool text reaches the host through this gate.
      const gate = runtime.output();
      const canPrompt = this.opts.args.promptHost && !this.mode.neverPrompt;
      const onDenied = (req: ApprovalRequest): void => {
        const id = toolUseIds.get(req.call.arguments) ?? req.call.id;
        denials.push({ tool_name: req.tool.name, tool_use_id: id, tool_input: gate.value(req.args) });
      };
      const approver = canPrompt
        ? new HostApprover(this.bus, {
            timeoutMs: this.permissionTimeoutMs,
            toolUseId: (req) => toolUseIds.get(req.call.arguments) ?? req.call.id,
            suggestions: (tool) => permissionSuggestions(this.opts.args.dialect, tool),
            onInterrupt: (msg) => {
              turn.interruptedBy = msg;
              turn.controller.abort();
            },
            onDenied,
            present: (args) => gate.value(args),
            onPermissionUpdates: (updates, req) => this.onPermissionUpdates(runtime, updates, req.call.id),
          })
        : new DenyAllApprover(
            this.mode.neverPrompt
              ? 'Permission mode dontAsk: tools that need approval are denied'
              : 'No permission prompt is available (start with --permission-prompt-tool stdio)',
            onDenied,
          );
      const projector = new TurnProjector(this.view(), this.partial, (m) => this.emit(m));
      const hooks = this.hooks;
      if (hooks) {
        hooks.turn = {
          toolUseId: (call) => toolUseIds.get(call.arguments) ?? call.id,
          present: (v) => gate.value(v),
          stop: (reason) => {
            turn.interruptedBy = reason;
            turn.controller.abort();
          },
        };
      }
      const egress = new AgentEventEgress(gate, (g: GatedAgentEvent) => {
        projector.accept(g);
        if (g.type === 'output_blocked' && blockedBy === undefined) {
          blockedBy = g.text;
          turn.interruptedBy = g.text;
          turn.controller.abort();
        } else if (g.type === 'result' && g.status === 'completed' && blockedBy === undefined) {
          finalText = g.text;
        }
      });
      const onEvent = (event: AgentEvent): void => {
        if (event.depth !== 0) return;
        egress.accept(event);
        if (
          event.type === 'tool_proposed' &&
          typeof event.arguments === 'object' &&
          event.arguments !== null
        ) {
          toolUseIds.set(event.arguments, event.callId);
        }
        if (event.type === 'error' && blockedBy === undefined) errors.push(gate.value(event.message));
        if (event.type === 'result') {
          numTurns = event.turns;
          usage = { inputTokens: event.usage.inputTokens, outputTokens: event.usage.outputTokens };
          apiMs = event.durationMs;
          if (blockedBy !== undefined) {
            subtype = 'error_during_execution';
            errors.length = 0;
            errors.push(blockedBy);
          } else if (event.status === 'completed') {
            // finalText is the gated text the egress just released
          } else if (event.status === 'max_turns') {
            subtype = 'error_max_turns';
            errors.push(
              `Reached maximum number of turns (${this.params?.maxTurns ?? this.opts.args.maxTurns ?? numTurns})`,
            );
          } else {
            subtype = 'error_during_execution';
            if (event.status === 'interrupted') errors.push(turn.interruptedBy ?? 'Operation cancelled.');
            else if (event.status === 'budget_exceeded') errors.push('Budget exceeded');
            else if (errors.length === 0) errors.push(gate.value(event.text) || 'The turn failed');
          }
        }
      };
      const prompt = promptText(message);
      // UserPromptSubmit: a block (or a hook that fails) means the prompt never reaches the model.
      const submitted = hooks ? await hooks.promptSubmitted(prompt, turn.controller.signal) : {};
      if (submitted.block !== undefined) {
        subtype = 'error_during_execution';
        errors.push(submitted.block);
      } else {
        await runtime.run(
          {
            prompt,
            signal: turn.controller.signal,
            approver,
            approvalMode: this.mode.approvalMode,
            maxTurns: this.params?.maxTurns ?? this.opts.args.maxTurns,
            ...(submitted.context !== undefined ? { context: submitted.context } : {}),
          },
          onEvent,
        );
      }
      if (blockedBy === undefined && submitted.block === undefined) egress.end();
      projector.flush();
      if (turn.controller.signal.aborted && subtype === 'success') {
        subtype = 'error_during_execution';
        errors.push(turn.interruptedBy ?? 'Operation cancelled.');
      }
    } catch (err) {
      subtype = 'error_during_execution';
      errors.push(err instanceof Error ? err.message : String(err));
    } finally {
      this.current = undefined;
      if (this.hooks) this.hooks.turn = undefined;
    }
    this.totalTokens += usage.inputTokens + usage.outputTokens;
    if (subtype === 'error_during_execution' && turn.controller.signal.aborted && blockedBy === undefined) {
      const marker = interruptedMarker(this.view());
      if (marker) this.emit(marker);
    }
    this.emit(
      resultMessage(this.view(), {
        subtype,
        text: finalText,
        errors,
        durationMs: Date.now() - started,
        durationApiMs: apiMs,
        numTurns: Math.max(numTurns, 1),
        usage,
        denials,
      }),
    );
  }
}

/** The prompt text of a user message: text blocks joined; other blocks as JSON. */
export function promptText(message: UserMessage): string {
  const c = message.message.content;
  if (typeof c === 'string') return c;
  return c
    .map((b) =>
      b.type === 'text' && typeof b['text'] === 'string' ? (b['text'] as string) : JSON.stringify(b),
    )
    .join('\n');
}

/**
 * Turns the runtime's events into the host's messages: streamed text becomes one assistant text
 * block when the model moves on (to a tool call or the end of its turn), each proposed call an
 * assistant `tool_use` block, each gateway result a `user` tool result.
 */
class TurnProjector {
  private text = '';
  private messageId = `msg_${randomUUID()}`;
  private blockIndex = 0;
  private streaming = false;

  constructor(
    private readonly view: SessionView,
    private readonly partial: boolean,
    private readonly out: (message: unknown) => void,
  ) {}

  accept(e: GatedAgentEvent): void {
    switch (e.type) {
      case 'output_blocked':
        // What was held is dropped; the host gets the gated sentence instead, and the turn ends.
        this.text = e.text;
        this.flush();
        if (this.partial) this.out(streamEvent(this.view, { type: 'message_stop' }));
        return;
      case 'turn_start':
        this.messageId = `msg_${randomUUID()}`;
        this.blockIndex = 0;
        if (this.partial) {
          this.out(
            streamEvent(this.view, {
              type: 'message_start',
              message: { id: this.messageId, role: 'assistant', model: this.view.model, content: [] },
            }),
          );
        }
        return;
      case 'text_delta':
        if (this.partial) {
          if (!this.streaming) {
            this.out(
              streamEvent(this.view, {
                type: 'content_block_start',
                index: this.blockIndex,
                content_block: { type: 'text', text: '' },
              }),
            );
            this.streaming = true;
          }
          this.out(
            streamEvent(this.view, {
              type: 'content_block_delta',
              index: this.blockIndex,
              delta: { type: 'text_delta', text: e.text },
            }),
          );
        }
        this.text += e.text;
        return;
      case 'tool_proposed':
        this.flush();
        this.block({ type: 'tool_use', id: e.callId, name: e.tool, input: e.arguments ?? {} });
        return;
      case 'tool_result':
        this.out(toolResultMessage(this.view, e.callId, e.content, e.status !== 'executed'));
        return;
      case 'turn_end':
        this.flush();
        if (this.partial) this.out(streamEvent(this.view, { type: 'message_stop' }));
        return;
      default:
        return;
    }
  }

  /** Emits buffered text as a completed block. */
  flush(): void {
    if (this.text.length === 0) return;
    const text = this.text;
    this.text = '';
    this.block({ type: 'text', text });
  }

  private block(block: AssistantBlock): void {
    this.out(assistantMessage(this.view, this.messageId, block, { inputTokens: 0, outputTokens: 0 }));
    if (this.partial && this.streaming) {
      this.out(streamEvent(this.view, { type: 'content_block_stop', index: this.blockIndex }));
      this.streaming = false;
    }
    this.blockIndex++;
  }
}

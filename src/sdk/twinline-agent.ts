import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  CanUseToolRequest,
  ControlBus,
  type ControlRequestEnvelope,
  classifyHostLine,
  encodeLine,
  LineDecoder,
  PROTOCOL_ERROR_CODES,
  ProtocolError,
} from '../protocol/index.js';
import { EventQueue } from './event-queue.js';
import type {
  PermissionDecision,
  PermissionHandler,
  PreToolUseDecision,
  PreToolUseHandler,
  TwinlineAgentOptions,
  TwinlineEvent,
  TwinlineMessage,
} from './types.js';

const DEFAULT_EXECUTABLE = fileURLToPath(new URL('../../bin/twinline.js', import.meta.url));
const STDERR_TAIL = 4096;
/** The callback id the agent registers its `pre_tool_use` hook under. */
const PRE_TOOL_USE_HOOK = 'twinline_pre_tool_use';

/** A file the host already read, for the engine's read cache. */
export interface SeedFile {
  readonly path: string;
  readonly content?: string;
  readonly mtime?: number;
}

function flagArgs(o: TwinlineAgentOptions): string[] {
  const args = [
    '--input-format',
    'stream-json',
    '--output-format',
    'stream-json',
    '--verbose',
    '--permission-prompt-tool',
    'stdio',
  ];
  if (o.model) args.push(`--model=${o.model}`);
  if (o.permissionMode) args.push(`--permission-mode=${o.permissionMode}`);
  if (o.allowedTools?.length) args.push(`--allowedTools=${o.allowedTools.join(',')}`);
  if (o.disallowedTools?.length) args.push(`--disallowedTools=${o.disallowedTools.join(',')}`);
  if (o.maxTurns !== undefined) args.push(`--max-turns=${o.maxTurns}`);
  if (o.sessionId) args.push(`--session-id=${o.sessionId}`);
  if (o.includePartialMessages) args.push('--include-partial-messages');
  return args;
}

function normalise(decision: PermissionDecision, input: unknown): Record<string, unknown> {
  const d: Exclude<PermissionDecision, string> =
    decision === 'allow' ? { behavior: 'allow' } : decision === 'deny' ? { behavior: 'deny' } : decision;
  if (d.behavior === 'allow') {
    return {
      behavior: 'allow',
      updatedInput: 'updatedInput' in d && d.updatedInput !== undefined ? d.updatedInput : input,
    };
  }
  return {
    behavior: 'deny',
    message: ('message' in d ? d.message : undefined) ?? 'Denied by host',
    ...('interrupt' in d && d.interrupt ? { interrupt: true } : {}),
  };
}

/**
 * Drives a Twinline engine (`bin/twinline.js` in stream-json mode) as a child process: runs
 * prompts as event streams, answers the gateway's permission requests through a handler,
 * interrupts, switches model and mode, and seeds the read cache. A handler that never answers
 * does not hang the engine: the engine denies the call after `permissionTimeoutMs` and the run
 * reports a `permission_timeout` notice.
 */
export class TwinlineAgent {
  private proc: ChildProcessWithoutNullStreams | undefined;
  private bus: ControlBus | undefined;
  private ready: Promise<unknown> | undefined;
  private current: EventQueue<TwinlineEvent> | undefined;
  private permissionHandler: PermissionHandler | undefined;
  private preToolUse: PreToolUseHandler | undefined;
  private readonly answering = new Map<string, AbortController>();
  private stderrTail = '';
  private exit: Promise<number | null> | undefined;
  private exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private interrupting = false;
  private sessionIdSeen: string | undefined;

  constructor(private readonly options: TwinlineAgentOptions = {}) {}

  /** The engine's session id, once it has reported one. */
  get sessionId(): string | undefined {
    return this.sessionIdSeen ?? this.options.sessionId;
  }

  /**
   * Registers the handler that answers permission requests, or the `pre_tool_use` hook (one each;
   * a later call replaces it). The hook is announced to the engine when it starts, so register it
   * before the first run.
   */
  on(event: 'permission_request', handler: PermissionHandler): this;
  on(event: 'pre_tool_use', handler: PreToolUseHandler): this;
  on(event: 'permission_request' | 'pre_tool_use', handler: PermissionHandler | PreToolUseHandler): this {
    if (event === 'permission_request') this.permissionHandler = handler as PermissionHandler;
    else if (event === 'pre_tool_use') {
      if (this.ready && !this.preToolUse) {
        throw new ProtocolError('sdk.late_hook', 'register pre_tool_use before the first run or request');
      }
      this.preToolUse = handler as PreToolUseHandler;
    } else throw new TypeError(`unknown event ${String(event)}`);
    return this;
  }

  /**
   * Changes a run parameter of the session (`max_turns`, `max_budget_tokens`, `max_budget_usd`,
   * `allowed_tools`, `disallowed_tools`, `permission_timeout_ms`, `include_partial_messages`). It
   * can only narrow what the session allows; an unknown name or a wider value rejects with a
   * `ProtocolError` naming why. Resolves with the value now in force.
   */
  async setVariable(name: string, value: unknown): Promise<unknown> {
    const r = (await this.request({ subtype: 'set_variable', name, value })) as { value?: unknown };
    return r.value;
  }

  /**
   * Runs one prompt; yields the engine's messages up to and including the turn's `result`.
   * One run at a time. Throws a `ProtocolError` if the engine exits mid-run.
   */
  async *run(prompt: string): AsyncGenerator<TwinlineEvent, void, undefined> {
    if (this.current) throw new ProtocolError('sdk.busy', 'a run is already in progress');
    const queue = new EventQueue<TwinlineEvent>();
    this.current = queue;
    this.interrupting = false;
    try {
      await this.start();
      this.write({
        type: 'user',
        session_id: this.sessionId ?? '',
        message: { role: 'user', content: prompt },
        parent_tool_use_id: null,
      });
      for await (const event of queue) {
        yield event;
        if (event.type === 'result') return;
      }
    } finally {
      if (this.current === queue) this.current = undefined;
    }
  }

  /** Interrupts the running turn (it ends with an `error_during_execution` result). */
  async interrupt(): Promise<void> {
    this.interrupting = true;
    await this.request({ subtype: 'interrupt' });
  }

  /** Switches the model for the next model request; resolves with the model now in use. */
  async setModel(model?: string): Promise<string> {
    const r = (await this.request({ subtype: 'set_model', model: model ?? null })) as { model?: string };
    return r.model ?? model ?? '';
  }

  /**
   * Changes the approval mode; resolves with the mode as the engine reports it. A privileged mode
   * (acceptEdits, auto, bypassPermissions, auto-edit, yolo) in a folder the engine does not trust
   * rejects with a `ProtocolError` of code `protocol.trust_gate` naming the mode and the folder;
   * the engine keeps its mode. (The `permissionMode` option is gated the same way when the engine
   * starts: it exits with that message, which the first run or request rejects with.)
   */
  async setPermissionMode(mode: string): Promise<string> {
    const r = (await this.request({ subtype: 'set_permission_mode', mode })) as { mode?: string };
    return r.mode ?? mode;
  }

  /** Pre-loads files (and their contents) the host already read into the engine's read cache. */
  async seedReadState(files: readonly SeedFile[]): Promise<number> {
    const r = (await this.request({ subtype: 'seed_read_state', files })) as { seeded?: number };
    return r.seeded ?? files.length;
  }

  /**
   * Closes stdin so the engine finishes queued work and exits; SIGTERM after `graceMs`, SIGKILL
   * 5 s later. Resolves with the exit code.
   */
  async close(graceMs = 2000): Promise<number | null> {
    const proc = this.proc;
    if (!proc || !this.exit) return null;
    if (!this.exited) {
      proc.stdin.end();
      const term = setTimeout(() => proc.kill('SIGTERM'), graceMs);
      const kill = setTimeout(() => proc.kill('SIGKILL'), graceMs + 5000);
      try {
        await this.exit;
      } finally {
        clearTimeout(term);
        clearTimeout(kill);
      }
    }
    return this.exited?.code ?? null;
  }

  private async request(body: { subtype: string; [k: string]: unknown }): Promise<unknown> {
    await this.start();
    if (!this.bus) throw new ProtocolError(PROTOCOL_ERROR_CODES.closed, 'engine is not running');
    return this.bus.request(body);
  }

  private start(): Promise<unknown> {
    if (this.ready) return this.ready;
    const o = this.options;
    const env: NodeJS.ProcessEnv = { ...process.env, ...o.env };
    if (o.permissionTimeoutMs !== undefined)
      env['TWINLINE_PERMISSION_TIMEOUT_MS'] = String(o.permissionTimeoutMs);
    const proc = spawn(process.execPath, [o.executable ?? DEFAULT_EXECUTABLE, ...flagArgs(o)], {
      cwd: o.cwd ?? process.cwd(),
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.proc = proc;
    const bus = new ControlBus({
      send: (env) => this.write(env),
      defaultTimeoutMs: o.requestTimeoutMs ?? 60_000,
    });
    this.bus = bus;
    this.exit = new Promise((resolve) => {
      proc.on('close', (code, signal) => {
        this.exited = { code, signal };
        this.onExit();
        resolve(code);
      });
    });
    proc.on('error', (err) => {
      this.stderrTail += `\n${err.message}`;
    });
    proc.stdin.on('error', () => undefined); // EPIPE after the engine exited: reported by 'close'
    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL);
    });
    const decoder = new LineDecoder();
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (chunk: string) => {
      for (const d of decoder.push(chunk)) if (d.kind === 'line') this.onLine(d.text);
    });
    this.ready = bus.request({
      subtype: 'initialize',
      hooks: this.preToolUse ? { PreToolUse: [{ hookCallbackIds: [PRE_TOOL_USE_HOOK] }] } : null,
    });
    // A failed start surfaces from the first run/request; keep it from being unhandled meanwhile.
    this.ready.catch(() => undefined);
    return this.ready;
  }

  private write(message: unknown): void {
    const proc = this.proc;
    if (!proc || this.exited || proc.stdin.destroyed || proc.stdin.writableEnded) {
      throw new ProtocolError(PROTOCOL_ERROR_CODES.hostGone, 'the engine is not running');
    }
    proc.stdin.write(encodeLine(message));
  }

  private onLine(text: string): void {
    let value: { type?: unknown; session_id?: unknown };
    try {
      value = JSON.parse(text) as { type?: unknown };
    } catch {
      this.current?.push({ type: 'notice', code: 'protocol_error', message: 'engine wrote a non-JSON line' });
      return;
    }
    switch (value.type) {
      case 'control_response': {
        const line = classifyHostLine(text);
        if (line.kind === 'control_response') this.bus?.handleResponse(line.envelope);
        return;
      }
      case 'control_request': {
        const line = classifyHostLine(text);
        if (line.kind === 'control_request') void this.onEngineRequest(line.envelope);
        return;
      }
      case 'control_cancel_request': {
        const id = (value as { request_id?: unknown }).request_id;
        if (typeof id === 'string') this.onEngineCancel(id);
        return;
      }
      default:
        if (typeof value.session_id === 'string' && value.session_id) this.sessionIdSeen = value.session_id;
        if (typeof value.type === 'string') this.current?.push(value as TwinlineMessage);
    }
  }

  private async onHookCallback(id: string, request: Record<string, unknown>): Promise<void> {
    const handler = this.preToolUse;
    if (!handler || request['callback_id'] !== PRE_TOOL_USE_HOOK) {
      this.respond(id, undefined, `No hook callback found for ID: ${String(request['callback_id'])}`);
      return;
    }
    const input = (request['input'] ?? {}) as { tool_name?: unknown; tool_input?: unknown };
    const controller = new AbortController();
    this.answering.set(id, controller);
    let decision: PreToolUseDecision;
    try {
      decision = await handler({
        toolName: String(input.tool_name),
        input: input.tool_input,
        toolUseId: typeof request['tool_use_id'] === 'string' ? request['tool_use_id'] : undefined,
        signal: controller.signal,
      });
    } catch (err) {
      // the engine treats a failed hook as a refusal; say so on the wire
      if (!this.answering.delete(id)) return;
      this.respond(
        id,
        undefined,
        `pre_tool_use hook failed: ${err instanceof Error ? err.message : String(err)}`,
      );
      return;
    }
    if (!this.answering.delete(id)) return;
    const d = typeof decision === 'string' ? { decision } : decision;
    this.respond(id, {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: d.decision,
        ...('reason' in d && d.reason ? { permissionDecisionReason: d.reason } : {}),
        ...('updatedInput' in d && d.updatedInput ? { updatedInput: d.updatedInput } : {}),
      },
    });
  }

  private async onEngineRequest(envelope: ControlRequestEnvelope): Promise<void> {
    const id = envelope.request_id;
    if (envelope.request.subtype === 'hook_callback') {
      await this.onHookCallback(id, envelope.request);
      return;
    }
    const parsed = CanUseToolRequest.safeParse(envelope.request);
    if (!parsed.success) {
      this.respond(id, undefined, `Unsupported control request subtype: ${envelope.request.subtype}`);
      return;
    }
    const req = parsed.data;
    const controller = new AbortController();
    this.answering.set(id, controller);
    const handler = this.permissionHandler;
    let response: Record<string, unknown>;
    if (!handler) {
      response = { behavior: 'deny', message: 'No permission_request handler is registered' };
    } else {
      try {
        const decision = await handler({
          toolName: req.tool_name,
          input: req.input,
          toolUseId: req.tool_use_id,
          reason: req.decision_reason,
          description: req.description,
          suggestions: req.permission_suggestions ?? [],
          signal: controller.signal,
        });
        response = normalise(decision, req.input);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        this.current?.push({
          type: 'notice',
          code: 'permission_handler_failed',
          message,
          toolUseId: req.tool_use_id,
        });
        response = { behavior: 'deny', message: `Permission handler failed: ${message}` };
      }
    }
    if (controller.signal.aborted || !this.answering.has(id)) return; // withdrawn: a late answer is pointless
    this.answering.delete(id);
    this.respond(id, { ...response, toolUseID: req.tool_use_id });
  }

  private onEngineCancel(id: string): void {
    const controller = this.answering.get(id);
    if (!controller) return;
    this.answering.delete(id);
    controller.abort();
    if (!this.interrupting) {
      this.current?.push({
        type: 'notice',
        code: 'permission_timeout',
        message:
          'the engine withdrew a permission request that was not answered in time; the call was denied',
      });
    }
  }

  private respond(id: string, payload: unknown, error?: string): void {
    try {
      this.write({
        type: 'control_response',
        response:
          error === undefined
            ? { subtype: 'success', request_id: id, response: payload }
            : { subtype: 'error', request_id: id, error },
      });
    } catch {
      // the engine is gone; its exit is reported to the run
    }
  }

  private onExit(): void {
    const e = this.exited;
    const why = `the engine exited (code ${e?.code ?? 'null'}${e?.signal ? `, signal ${e.signal}` : ''})`;
    const tail = this.stderrTail.trim();
    const error = new ProtocolError(
      PROTOCOL_ERROR_CODES.hostGone,
      tail ? `${why}: ${tail.slice(-1000)}` : why,
    );
    this.bus?.close(error);
    for (const c of this.answering.values()) c.abort();
    this.answering.clear();
    this.current?.fail(error);
  }
}

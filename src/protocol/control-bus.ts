import { PROTOCOL_ERROR_CODES, ProtocolError } from './errors.js';
import type {
  ControlCancelEnvelope,
  ControlRequestEnvelope,
  ControlResponseEnvelope,
  EngineRequest,
} from './schemas.js';

export interface ControlBusOptions {
  /** Writes one envelope to the host. Must not throw for a closed pipe (the bus is closed then). */
  readonly send: (envelope: ControlRequestEnvelope | ControlCancelEnvelope) => void;
  /** Timeout of a request that gives none of its own. */
  readonly defaultTimeoutMs: number;
  readonly newId?: () => string;
  /** Where dropped responses and other oddities are reported (stderr in the CLI). */
  readonly log?: (message: string) => void;
}

/**
 * A request body. The engine sends {@link EngineRequest}s (`can_use_tool`, …); the SDK reuses the
 * bus for host → engine requests (`interrupt`, `set_model`, …).
 */
export type OutgoingRequest = EngineRequest | { readonly subtype: string; readonly [field: string]: unknown };

export interface RequestOptions {
  readonly timeoutMs?: number;
  /** Aborting withdraws the request: the host gets a `control_cancel_request`. */
  readonly signal?: AbortSignal;
}

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: ProtocolError) => void;
  readonly timer: ReturnType<typeof setTimeout> | undefined;
  readonly signal: AbortSignal | undefined;
  readonly subtype: string;
}

/** One abort listener per signal, shared by every request made under it. */
interface SignalWatch {
  readonly ids: Set<string>;
  readonly onAbort: () => void;
}

/** How many settled ids are remembered, only to tell "late" from "unknown" in the log. */
const SETTLED_MEMORY = 1024;

let idCounter = 0;
function defaultId(): string {
  idCounter = (idCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `tl-${process.pid.toString(36)}-${Date.now().toString(36)}-${idCounter.toString(36)}`;
}

/**
 * Engine → host requests as promises keyed by `request_id`. Every request settles exactly once:
 * by the host's response, its timeout, its cancellation, or the bus closing (host gone). A
 * response to an unknown or already settled id is logged and dropped. Callers that decide
 * permissions treat every rejection as a denial (fail closed).
 */
export class ControlBus {
  private readonly pending = new Map<string, Pending>();
  private readonly recentlySettled = new Set<string>();
  // Listeners on AbortSignal cost tens of microseconds each in Node 20, and a turn makes many
  // requests under one signal: watch each signal once.
  private readonly watches = new Map<AbortSignal, SignalWatch>();
  private closedWith: ProtocolError | undefined;
  private readonly newId: () => string;

  constructor(private readonly options: ControlBusOptions) {
    this.newId = options.newId ?? defaultId;
  }

  /** Requests in flight. Zero after {@link close}. */
  get pendingCount(): number {
    return this.pending.size;
  }

  get closed(): boolean {
    return this.closedWith !== undefined;
  }

  /**
   * Sends `request` and resolves with the host's success payload. Rejects with a
   * {@link ProtocolError}: `protocol.timeout`, `protocol.cancelled`, `protocol.host_gone`,
   * `protocol.error_response` (the host answered `error`), `protocol.invalid_message`.
   */
  request(request: OutgoingRequest, options: RequestOptions = {}): Promise<unknown> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (options.signal?.aborted) {
      return Promise.reject(
        new ProtocolError(PROTOCOL_ERROR_CODES.cancelled, `${request.subtype} cancelled before it was sent`),
      );
    }
    const id = this.newId();
    const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs;
    return new Promise<unknown>((resolve, reject) => {
      const timer =
        Number.isFinite(timeoutMs) && timeoutMs > 0
          ? setTimeout(() => {
              this.withdraw(
                id,
                new ProtocolError(
                  PROTOCOL_ERROR_CODES.timeout,
                  `host did not answer ${request.subtype} within ${timeoutMs} ms`,
                  { where: `request ${id}` },
                ),
              );
            }, timeoutMs)
          : undefined;
      const signal = options.signal;
      this.pending.set(id, { resolve, reject, timer, signal, subtype: request.subtype });
      if (signal) this.watch(signal, id);
      try {
        this.options.send({ type: 'control_request', request_id: id, request });
      } catch (err) {
        this.settle(
          id,
          new ProtocolError(PROTOCOL_ERROR_CODES.hostGone, `could not send ${request.subtype}`, {
            where: `request ${id}`,
            cause: err,
          }),
        );
      }
    });
  }

  /** Routes a host response to its request. Returns false (and logs) when nothing was waiting. */
  handleResponse(envelope: ControlResponseEnvelope): boolean {
    const r = envelope.response;
    if (!this.pending.has(r.request_id)) {
      this.logDropped(r.request_id);
      return false;
    }
    if (r.subtype === 'success') {
      this.settle(r.request_id, undefined, r.response ?? {});
    } else {
      const message = typeof r.error === 'string' ? r.error : r.error.message;
      const errorCode = (r as { error_code?: unknown }).error_code;
      this.settle(
        r.request_id,
        new ProtocolError(
          errorCode === 'trust_gate' ? PROTOCOL_ERROR_CODES.trustGate : PROTOCOL_ERROR_CODES.errorResponse,
          message,
          {
            where: `request ${r.request_id}`,
            ...(typeof errorCode === 'string' ? { details: { errorCode } } : {}),
          },
        ),
      );
    }
    return true;
  }

  /** Fails one pending request (e.g. the host answered it with a malformed line). */
  fail(requestId: string, error: ProtocolError): boolean {
    if (!this.pending.has(requestId)) {
      this.logDropped(requestId);
      return false;
    }
    this.settle(requestId, error);
    return true;
  }

  /**
   * The host went away (stdin EOF, broken pipe) or the engine is shutting down: every pending
   * request is rejected with `error` and later requests reject at once.
   */
  close(
    error: ProtocolError = new ProtocolError(
      PROTOCOL_ERROR_CODES.hostGone,
      'host closed the control channel',
    ),
  ): void {
    if (this.closedWith) return;
    this.closedWith = error;
    for (const id of [...this.pending.keys()]) this.settle(id, error);
  }

  private withdraw(id: string, error: ProtocolError): void {
    if (!this.pending.has(id)) return;
    this.settle(id, error);
    if (this.closedWith) return;
    try {
      this.options.send({ type: 'control_cancel_request', request_id: id });
    } catch {
      // the host is gone; nothing to withdraw from
    }
  }

  private settle(id: string, error: ProtocolError | undefined, value?: unknown): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (p.timer !== undefined) clearTimeout(p.timer);
    if (p.signal) this.unwatch(p.signal, id);
    this.rememberSettled(id);
    if (error) p.reject(error);
    else p.resolve(value);
  }

  private watch(signal: AbortSignal, id: string): void {
    let w = this.watches.get(signal);
    if (!w) {
      const ids = new Set<string>();
      const onAbort = (): void => {
        for (const pid of [...ids]) {
          const subtype = this.pending.get(pid)?.subtype ?? 'request';
          this.withdraw(
            pid,
            new ProtocolError(PROTOCOL_ERROR_CODES.cancelled, `${subtype} was cancelled`, {
              where: `request ${pid}`,
            }),
          );
        }
      };
      w = { ids, onAbort };
      this.watches.set(signal, w);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    w.ids.add(id);
  }

  private unwatch(signal: AbortSignal, id: string): void {
    const w = this.watches.get(signal);
    if (!w) return;
    w.ids.delete(id);
    if (w.ids.size === 0) {
      this.watches.delete(signal);
      signal.removeEventListener('abort', w.onAbort);
    }
  }

  private rememberSettled(id: string): void {
    this.recentlySettled.add(id);
    if (this.recentlySettled.size > SETTLED_MEMORY) {
      const oldest = this.recentlySettled.values().next().value;
      if (oldest !== undefined) this.recentlySettled.delete(oldest);
    }
  }

  private logDropped(id: string): void {
    const why = this.recentlySettled.has(id) ? 'already settled' : 'unknown';
    this.options.log?.(`control_response for ${why} request_id ${JSON.stringify(id)} dropped`);
  }
}

import { ProviderConfigError, ProviderError } from '../errors.js';

/** How Twinline talks to a model service: the `model` section of the config, then the environment. */
export interface ModelServiceSettings {
  /** Longest wait for a response to start (a whole response when not streaming), per attempt. */
  readonly requestTimeoutMs: number;
  /** Longest silence between two events of a streamed response. */
  readonly streamIdleTimeoutMs: number;
  /** Stream responses (text as it is written); false asks for whole responses. */
  readonly stream: boolean;
  /** Retries after a failed attempt: 429, 5xx and connection errors, never a timeout. */
  readonly maxRetries: number;
}

/** What a user expects of a chat model: a minute to start answering, half a minute of silence at most. */
export const DEFAULT_MODEL_SERVICE: ModelServiceSettings = {
  requestTimeoutMs: 60_000,
  streamIdleTimeoutMs: 30_000,
  stream: true,
  maxRetries: 2,
};

const ENV_NUMBERS = {
  TWINLINE_MODEL_TIMEOUT_MS: 'requestTimeoutMs',
  TWINLINE_MODEL_IDLE_TIMEOUT_MS: 'streamIdleTimeoutMs',
  TWINLINE_MODEL_RETRIES: 'maxRetries',
} as const;

/**
 * The settings in force: the defaults, overridden by the config file's `model` section, overridden
 * by the environment (`TWINLINE_MODEL_TIMEOUT_MS`, `TWINLINE_MODEL_IDLE_TIMEOUT_MS`,
 * `TWINLINE_MODEL_STREAM`, `TWINLINE_MODEL_RETRIES`). A value that is not a number of the right
 * kind is an error naming the variable.
 */
export function modelServiceSettings(
  file: Partial<ModelServiceSettings> | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ModelServiceSettings {
  const out: { -readonly [K in keyof ModelServiceSettings]: ModelServiceSettings[K] } = {
    ...DEFAULT_MODEL_SERVICE,
    ...Object.fromEntries(Object.entries(file ?? {}).filter(([, v]) => v !== undefined)),
  };
  for (const [name, key] of Object.entries(ENV_NUMBERS)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const n = Number(raw);
    const min = key === 'maxRetries' ? 0 : 100;
    if (!Number.isInteger(n) || n < min || n > 3_600_000) {
      throw new ProviderConfigError(
        'agent.bad_model_setting',
        `must be an integer >= ${min}, got ${JSON.stringify(raw)}`,
        {
          where: name,
        },
      );
    }
    out[key] = n;
  }
  const stream = env.TWINLINE_MODEL_STREAM;
  if (stream !== undefined && stream !== '') {
    if (!/^(1|0|true|false|on|off)$/i.test(stream)) {
      throw new ProviderConfigError(
        'agent.bad_model_setting',
        `must be true or false, got ${JSON.stringify(stream)}`,
        {
          where: 'TWINLINE_MODEL_STREAM',
        },
      );
    }
    out.stream = /^(1|true|on)$/i.test(stream);
  }
  return out;
}

/** Why an attempt's own timers stopped it. */
export type AttemptTimeout = 'timeout' | 'stream_idle' | undefined;

/**
 * One attempt's cancellation: the turn's signal, the request timeout until the response starts
 * (`responded()`), then the stream-idle timeout re-armed on every event (`activity()`). Aborting
 * the attempt's signal drops the request on the wire; `timedOut` says whether a timer did it.
 */
export class AttemptTimers {
  readonly #ac = new AbortController();
  readonly #settings: ModelServiceSettings;
  readonly #parent: AbortSignal;
  readonly #onParentAbort = () => this.#ac.abort(this.#parent.reason);
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timedOut: AttemptTimeout;

  constructor(parent: AbortSignal, settings: ModelServiceSettings) {
    this.#parent = parent;
    this.#settings = settings;
    if (parent.aborted) this.#ac.abort(parent.reason);
    else parent.addEventListener('abort', this.#onParentAbort, { once: true });
    this.#arm('timeout', settings.requestTimeoutMs);
  }

  get signal(): AbortSignal {
    return this.#ac.signal;
  }

  get timedOut(): AttemptTimeout {
    return this.#timedOut;
  }

  /** The response has started: from now on only silence counts. */
  responded(): void {
    this.#arm('stream_idle', this.#settings.streamIdleTimeoutMs);
  }

  /** An event of the stream arrived. */
  activity(): void {
    this.#arm('stream_idle', this.#settings.streamIdleTimeoutMs);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#parent.removeEventListener('abort', this.#onParentAbort);
  }

  #arm(kind: Exclude<AttemptTimeout, undefined>, ms: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timedOut = kind;
      this.#ac.abort(new Error(kind));
    }, ms);
    // a pending model request must not keep a process that is shutting down alive
    this.#timer.unref?.();
  }
}

/** The error of an attempt a timer stopped. */
export function timeoutError(
  kind: 'timeout' | 'stream_idle',
  settings: ModelServiceSettings,
  where: string,
): ProviderError {
  return kind === 'timeout'
    ? new ProviderError(`the model service did not respond within ${settings.requestTimeoutMs} ms`, {
        where,
        failure: 'timeout',
      })
    : new ProviderError(`the model service's stream was silent for ${settings.streamIdleTimeoutMs} ms`, {
        where,
        failure: 'stream_idle',
      });
}

const CONNECTION_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/** The system error code somewhere in an error's cause chain (`ECONNREFUSED`, …). */
export function connectionCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 6; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code in CONNECTION_CODES) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A connection failure in words: what happened and where (never "busy"). */
export function connectionError(err: unknown, endpoint: string, where: string): ProviderError {
  const code = connectionCode(err);
  const what = code ? `${CONNECTION_CODES[code]} (${code})` : 'the connection failed';
  return new ProviderError(`cannot reach the model service at ${endpoint}: ${what}`, {
    where,
    failure: 'connection',
    cause: err,
    detail: scrubDetail(err instanceof Error ? err.message : String(err)),
  });
}

/**
 * What a service said, made fit for a log line: cut short, and anything shaped like a credential
 * (`sk-…`, `Bearer …`, a long token) replaced — some services quote the key they refused.
 */
export function scrubDetail(text: string): string {
  return text
    .slice(0, 500)
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]')
    .replace(/\b(sk|pk|key|tok)[-_][A-Za-z0-9*_-]{6,}/gi, '[redacted]')
    .replace(/\b[A-Za-z0-9_-]{32,}\b/g, '[redacted]');
}

/** An error status in words, with what the service said kept as `detail`. */
export function statusError(status: number, detail: string, where: string, cause?: unknown): ProviderError {
  return new ProviderError(`the model service answered HTTP ${status}`, {
    where,
    status,
    failure: 'http',
    detail: scrubDetail(detail),
    ...(cause === undefined ? {} : { cause }),
  });
}

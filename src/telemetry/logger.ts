import type { Logger, LoggerOptions } from 'pino';
import { ConfigError, importExternal } from '../core/index.js';

/** A structured logger (pino). Lines are JSON: `level`, `time`, `msg` and the fields given. */
export type TwinlineLogger = Logger;

/** The levels `TWINLINE_LOG_LEVEL` may name, quietest last. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Field names whose values are never written, wherever they sit in a log line: credentials, and
 * what a model, a tool or a user wrote (tool arguments, request text, answers). Log what happened
 * (ids, tenant, route, decision, timings), never what was said.
 */
export const REDACTED_FIELDS = [
  'authorization',
  'apiKey',
  'api_key',
  'key',
  'token',
  'password',
  'secret',
  'cookie',
  'args',
  'arguments',
  'input',
  'query',
  'text',
  'prompt',
  'body',
] as const;

/** `TWINLINE_LOG_LEVEL` (default `info`); an unknown level is an error naming the variable. */
export function logLevelFrom(env: Readonly<Record<string, string | undefined>> = process.env): LogLevel {
  const raw = env.TWINLINE_LOG_LEVEL?.trim().toLowerCase();
  if (!raw) return 'info';
  if ((LOG_LEVELS as readonly string[]).includes(raw)) return raw as LogLevel;
  throw new ConfigError(
    'config.log_level',
    `unknown log level ${JSON.stringify(raw)}: use ${LOG_LEVELS.join(', ')}`,
    {
      where: 'TWINLINE_LOG_LEVEL',
    },
  );
}

/** Where and how a logger writes. */
export interface CreateLoggerOptions {
  /** Default: `TWINLINE_LOG_LEVEL`, else `info`. */
  readonly level?: LogLevel;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Default: standard error (stdout stays the command's or the protocol's). */
  readonly destination?: { write(line: string): unknown };
  /** Fields on every line (`service`, `domain`, …). */
  readonly base?: Readonly<Record<string, unknown>>;
}

/**
 * A pino logger for Twinline's processes. Secrets and raw content are redacted by field name
 * ({@link REDACTED_FIELDS}, at the top level and one level down) as a backstop; the callers log
 * ids, decisions and timings only. pino is loaded when the first logger is made, so commands
 * that never log do not pay for it.
 */
export async function createLogger(options: CreateLoggerOptions = {}): Promise<TwinlineLogger> {
  const level = options.level ?? logLevelFrom(options.env);
  const { pino } = await importExternal<typeof import('pino')>('pino');
  const settings: LoggerOptions = {
    level,
    base: { service: 'twinline', ...options.base },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: REDACTED_FIELDS.flatMap((f) => [f, `*.${f}`]),
      censor: '[redacted]',
    },
  };
  const destination = options.destination ?? pino.destination({ fd: 2, sync: true });
  return pino(settings, destination as Parameters<typeof pino>[1]);
}

/** A logger that writes nothing (the library's default: a host wires its own). */
export async function silentLogger(): Promise<TwinlineLogger> {
  return createLogger({ level: 'silent' });
}

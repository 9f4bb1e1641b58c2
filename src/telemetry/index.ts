/** Telemetry: structured logs (pino); see docs/server.md, "Logs". */
export {
  type CreateLoggerOptions,
  createLogger,
  LOG_LEVELS,
  type LogLevel,
  logLevelFrom,
  REDACTED_FIELDS,
  silentLogger,
  type TwinlineLogger,
} from './logger.js';

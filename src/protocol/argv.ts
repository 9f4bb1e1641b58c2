import { PROTOCOL_ERROR_CODES, ProtocolError } from './errors.js';

/** Which SDK family is on the other end; decides message shapes (see docs/protocol.md). */
export type Dialect = 'claude' | 'qwen';

/** The stream-json options Twinline acts on. Everything else on the command line is ignored. */
export interface StreamJsonOptions {
  readonly dialect: Dialect;
  readonly model: string | undefined;
  /** Mode name as given (`--permission-mode` or `--approval-mode`). */
  readonly permissionMode: string | undefined;
  /** The host answers `can_use_tool`: Claude only with `--permission-prompt-tool stdio`, Qwen always. */
  readonly promptHost: boolean;
  readonly allowedTools: readonly string[];
  readonly disallowedTools: readonly string[];
  readonly sessionId: string | undefined;
  readonly maxTurns: number | undefined;
  readonly includePartialMessages: boolean;
  readonly verbose: boolean;
  readonly systemPrompt: string | undefined;
  readonly appendSystemPrompt: string | undefined;
  /** Flags that were accepted and ignored, for `--debug` logging. */
  readonly ignored: readonly string[];
}

/** Flags that never take a value (a following token is not consumed). */
const BOOLEAN_FLAGS = new Set([
  'verbose',
  'include-partial-messages',
  'include-hook-events',
  'continue',
  'fork-session',
  'strict-mcp-config',
  'no-session-persistence',
  'allow-dangerously-skip-permissions',
  'dangerously-skip-permissions',
  'debug',
  'await-initialize',
  'managed-settings-in-initialize',
  'sandbox',
  'safe-mode',
  'insecure',
  'worktree',
  'yolo',
  'print',
  'p',
]);

/** Returns true when argv asks for the stream-json protocol (checked before commander runs). */
export function isStreamJsonInvocation(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--input-format=stream-json' || a === '--output-format=stream-json') return true;
    if ((a === '--input-format' || a === '--output-format') && argv[i + 1] === 'stream-json') return true;
  }
  return false;
}

interface RawFlag {
  readonly name: string;
  readonly value: string | undefined;
}

/** Splits argv into flags: `--k=v`, `--k v` (v not starting with `--`), bare `--k`; repeats kept. */
export function splitFlags(args: readonly string[]): RawFlag[] {
  const out: RawFlag[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (!a.startsWith('-') || a === '-' || a === '--') continue; // no positionals in this mode
    const body = a.replace(/^--?/, '');
    const eq = body.indexOf('=');
    if (eq >= 0) {
      out.push({ name: body.slice(0, eq), value: body.slice(eq + 1) });
      continue;
    }
    const next = args[i + 1];
    if (!BOOLEAN_FLAGS.has(body) && next !== undefined && !next.startsWith('--')) {
      out.push({ name: body, value: next });
      i++;
    } else {
      out.push({ name: body, value: undefined });
    }
  }
  return out;
}

function list(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function positiveInt(flag: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new ProtocolError(
      PROTOCOL_ERROR_CODES.invalidMessage,
      `expected a positive integer, got "${value}"`,
      {
        where: `--${flag}`,
      },
    );
  }
  return n;
}

/**
 * Parses the stream-json command line of either SDK. Unknown flags are accepted and ignored
 * (hosts inject them through `extraArgs`). Throws {@link ProtocolError} only for a value Twinline
 * must act on and cannot (`--max-turns abc`, a format other than stream-json).
 */
export function parseStreamJsonArgs(args: readonly string[]): StreamJsonOptions {
  let dialect: Dialect = 'claude';
  let model: string | undefined;
  let permissionMode: string | undefined;
  let promptTool: string | undefined;
  const allowedTools: string[] = [];
  const disallowedTools: string[] = [];
  let sessionId: string | undefined;
  let maxTurns: number | undefined;
  let includePartialMessages = false;
  let verbose = false;
  let systemPrompt: string | undefined;
  let appendSystemPrompt: string | undefined;
  const ignored: string[] = [];

  for (const { name, value } of splitFlags(args)) {
    switch (name) {
      case 'input-format':
      case 'output-format':
        if (value !== 'stream-json') {
          throw new ProtocolError(PROTOCOL_ERROR_CODES.invalidMessage, `only stream-json is supported here`, {
            where: `--${name}=${value ?? ''}`,
          });
        }
        break;
      case 'channel':
        if (value === 'SDK') dialect = 'qwen';
        break;
      case 'model':
        model = value || undefined;
        break;
      case 'permission-mode':
      case 'approval-mode':
        permissionMode = value || undefined;
        break;
      case 'yolo':
        permissionMode = 'yolo';
        break;
      case 'permission-prompt-tool':
        promptTool = value;
        break;
      case 'allowedTools':
      case 'allowed-tools':
        allowedTools.push(...list(value));
        break;
      case 'disallowedTools':
      case 'disallowed-tools':
      case 'exclude-tools':
        disallowedTools.push(...list(value));
        break;
      case 'session-id':
        sessionId = value || undefined;
        break;
      case 'max-turns':
      case 'max-session-turns':
        maxTurns = positiveInt(name, value);
        break;
      case 'include-partial-messages':
        includePartialMessages = true;
        break;
      case 'verbose':
        verbose = true;
        break;
      case 'system-prompt':
        systemPrompt = value;
        break;
      case 'append-system-prompt':
        appendSystemPrompt = value;
        break;
      default:
        ignored.push(name);
    }
  }
  return {
    dialect,
    model,
    permissionMode,
    promptHost: dialect === 'qwen' || promptTool === 'stdio',
    allowedTools,
    disallowedTools,
    sessionId,
    maxTurns,
    includePartialMessages,
    verbose,
    systemPrompt,
    appendSystemPrompt,
    ignored,
  };
}

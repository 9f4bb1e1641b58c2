import { ConfigError, configSource, importExternal } from '../../core/index.js';
import {
  CHANNELS,
  type Channel,
  createGuardClient,
  type GuardClient,
  type ScanOptions,
  type ScanResult,
  scanText,
  scanWithGuard,
} from '../../gates/input/index.js';
import { findPii, type PiiFinding } from '../../gates/output/index.js';
import { writeOut } from '../write-out.js';

function parseChannel(raw: unknown, where: string): Channel {
  if (raw === undefined) return 'user_input';
  if (typeof raw === 'string' && (CHANNELS as readonly string[]).includes(raw)) return raw as Channel;
  throw new ConfigError(
    'cli_scan_channel',
    `channel must be ${CHANNELS.join(' | ')}, got ${JSON.stringify(raw)}`,
    { where },
  );
}

type Parts = 'both' | 'injection' | 'pii';

function partsOf(opts: ScanCliOptions): Parts {
  if (opts.piiOnly && opts.injectionOnly)
    throw new ConfigError('cli_scan_args', '--pii-only and --injection-only exclude each other', {
      where: 'twinline scan',
    });
  return opts.piiOnly ? 'pii' : opts.injectionOnly ? 'injection' : 'both';
}

const piiJson = (p: PiiFinding) => ({
  type: p.type,
  start: p.start,
  end: p.end,
  score: p.score,
  tier: p.tier,
});

/**
 * The wire shape: `{verdict, score, findings:[{type,start,end,score,reason}], pii:[{type,start,
 * end,score,tier}]}`; `--injection-only` drops `pii`, `--pii-only` keeps only `pii`.
 */
async function resultJson(
  text: string,
  channel: Channel,
  parts: Parts,
  configured: Pick<ScanOptions, 'thresholds'>,
  guard?: GuardClient,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  if (parts !== 'pii') {
    const guarded = guard ? await scanWithGuard(text, guard, { ...configured, channel }) : undefined;
    const r: ScanResult = guarded ?? scanText(text, { ...configured, channel });
    out.verdict = r.verdict;
    out.score = r.score;
    out.findings = r.findings.map((f) => ({
      type: f.type,
      start: f.start,
      end: f.end,
      score: f.score,
      reason: f.reason,
    }));
    if (guarded) out.guard = guarded.guard;
  }
  if (parts !== 'injection') out.pii = findPii(text).map(piiJson);
  return out;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function guardOf(opts: ScanCliOptions): GuardClient | undefined {
  if (opts.guardUrl === undefined) {
    if (opts.guardModel !== undefined)
      throw new ConfigError('cli_scan_guard', '--guard-model needs --guard-url', { where: 'twinline scan' });
    return undefined;
  }
  if (opts.guardModel === undefined)
    throw new ConfigError('cli_scan_guard', '--guard-url needs --guard-model', { where: 'twinline scan' });
  const timeoutMs = Number(opts.guardTimeout ?? '800');
  return createGuardClient({
    baseUrl: opts.guardUrl,
    model: opts.guardModel,
    format: (opts.guardFormat ?? 'chat') as 'chat' | 'classify',
    timeoutMs,
    ...(process.env.TWINLINE_GUARD_API_KEY ? { apiKey: process.env.TWINLINE_GUARD_API_KEY } : {}),
  });
}

/** The config's input-gate cut-offs; the built-in sample has none (the defaults), so loads nothing. */
async function thresholdsFor(opts: ScanCliOptions): Promise<Pick<ScanOptions, 'thresholds'>> {
  const source = configSource(opts.config);
  if (!source.file) return {};
  const { loadConfig } = await import('../../config/index.js');
  const thresholds = loadConfig(source.file).inputGate?.thresholds;
  return thresholds ? { thresholds } : {};
}

async function scanJsonl(
  parts: Parts,
  configured: Pick<ScanOptions, 'thresholds'>,
  guard?: GuardClient,
): Promise<void> {
  // only --jsonl reads lines: a one-shot run does not load readline
  const { createInterface } = await importExternal<typeof import('node:readline')>('node:readline');
  const rl = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const raw of rl) {
    line++;
    if (raw.trim() === '') continue;
    let id: unknown;
    try {
      const rec = JSON.parse(raw) as { id?: unknown; text?: unknown; channel?: unknown };
      if (rec === null || typeof rec !== 'object') throw new Error('not a JSON object');
      id = rec.id;
      if (typeof rec.text !== 'string') throw new Error('"text" must be a string');
      const channel = parseChannel(rec.channel, `stdin line ${line}`);
      process.stdout.write(
        `${JSON.stringify({ id: rec.id ?? null, ...(await resultJson(rec.text, channel, parts, configured, guard)) })}\n`,
      );
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      process.stdout.write(
        `${JSON.stringify({ id: id ?? null, error: `line ${line}: ${message}`, line })}\n`,
      );
    }
  }
}

/** Runs `twinline scan` once the gates module is loaded. */
export async function runScan(text: string | undefined, opts: ScanCliOptions): Promise<void> {
  const parts = partsOf(opts);
  const guard = guardOf(opts);
  const configured = await thresholdsFor(opts);
  if (opts.jsonl) {
    if (text !== undefined)
      throw new ConfigError('cli_scan_args', '--jsonl reads stdin; do not pass text too', {
        where: 'twinline scan',
      });
    await scanJsonl(parts, configured, guard);
    return;
  }
  const channel = parseChannel(opts.channel, 'twinline scan --channel');
  const input = text ?? (await readStdin());
  if (opts.json) {
    writeOut(`${JSON.stringify(await resultJson(input, channel, parts, configured, guard))}\n`);
    return;
  }
  const lines: string[] = [];
  if (parts !== 'pii') {
    const guarded = guard ? await scanWithGuard(input, guard, { ...configured, channel }) : undefined;
    const r: ScanResult = guarded ?? scanText(input, { ...configured, channel });
    lines.push(`${r.verdict} (score ${r.score})`);
    if (guarded)
      lines.push(
        guarded.guard.ok
          ? `  guard ${guarded.guard.model}: ${guarded.guard.label} (${guarded.guard.score}, ${guarded.guard.latencyMs} ms)`
          : `  guard ${guarded.guard.model} unavailable (${guarded.guard.error}); embedded scorer only`,
      );
    for (const f of r.findings) {
      lines.push(
        `  ${f.type} [${f.start},${f.end}) ${f.score}  ${f.reason}: ${JSON.stringify(input.slice(f.start, f.end))}`,
      );
    }
  }
  if (parts !== 'injection') {
    const pii = findPii(input);
    lines.push(`sensitive data: ${pii.length === 0 ? 'none' : pii.length}`);
    for (const p of pii)
      lines.push(
        `  ${p.type} [${p.start},${p.end}) ${p.tier} ${p.score}: ${JSON.stringify(input.slice(p.start, p.end))}`,
      );
  }
  writeOut(`${lines.join('\n')}\n`);
}

export interface ScanCliOptions {
  json?: boolean;
  jsonl?: boolean;
  channel?: string;
  piiOnly?: boolean;
  injectionOnly?: boolean;
  guardUrl?: string;
  guardModel?: string;
  guardFormat?: string;
  guardTimeout?: string;
  config?: string;
}

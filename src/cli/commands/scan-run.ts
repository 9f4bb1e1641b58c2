import { ConfigError, configSource, importExternal } from '../../core/index.js';
// Only the input gate: the output gate's recognisers are not needed to scan.
import {
  CHANNELS,
  type Channel,
  type ScanOptions,
  type ScanResult,
  scanText,
} from '../../gates/input/index.js';
import { writeOut } from '../write-out.js';
import type { ScanCliOptions } from './scan.js';

function parseChannel(raw: unknown, where: string): Channel {
  if (raw === undefined) return 'user_input';
  if (typeof raw === 'string' && (CHANNELS as readonly string[]).includes(raw)) return raw as Channel;
  throw new ConfigError(
    'cli_scan_channel',
    `channel must be ${CHANNELS.join(' | ')}, got ${JSON.stringify(raw)}`,
    { where },
  );
}

/** The wire shape: exactly `{verdict, score, findings:[{type,start,end,score,reason}]}`. */
function resultJson(r: ScanResult): Record<string, unknown> {
  return {
    verdict: r.verdict,
    score: r.score,
    findings: r.findings.map((f) => ({
      type: f.type,
      start: f.start,
      end: f.end,
      score: f.score,
      reason: f.reason,
    })),
  };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The config's input-gate cut-offs; the built-in sample has none (the defaults), so loads nothing. */
async function thresholdsFor(opts: ScanCliOptions): Promise<Pick<ScanOptions, 'thresholds'>> {
  const source = configSource(opts.config);
  if (!source.file) return {};
  const { loadConfig } = await import('../../config/index.js');
  const thresholds = loadConfig(source.file).inputGate?.thresholds;
  return thresholds ? { thresholds } : {};
}

async function scanJsonl(configured: Pick<ScanOptions, 'thresholds'>): Promise<void> {
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
        `${JSON.stringify({ id: rec.id ?? null, ...resultJson(scanText(rec.text, { ...configured, channel })) })}\n`,
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
  const configured = await thresholdsFor(opts);
  if (opts.jsonl) {
    if (text !== undefined)
      throw new ConfigError('cli_scan_args', '--jsonl reads stdin; do not pass text too', {
        where: 'twinline scan',
      });
    await scanJsonl(configured);
    return;
  }
  const channel = parseChannel(opts.channel, 'twinline scan --channel');
  const input = text ?? (await readStdin());
  const r = scanText(input, { ...configured, channel });
  if (opts.json) {
    writeOut(`${JSON.stringify(resultJson(r))}\n`);
    return;
  }
  const lines = [`${r.verdict} (score ${r.score})`];
  for (const f of r.findings) {
    lines.push(
      `  ${f.type} [${f.start},${f.end}) ${f.score}  ${f.reason}: ${JSON.stringify(input.slice(f.start, f.end))}`,
    );
  }
  writeOut(`${lines.join('\n')}\n`);
}

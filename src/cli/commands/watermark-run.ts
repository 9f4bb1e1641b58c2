import { loadConfig } from '../../config/index.js';
import { ConfigError } from '../../core/index.js';
import { decodeWatermark, embedWatermark } from '../../gates/index.js';

function keyFrom(opt: string | undefined, where: string): string {
  const key = opt ?? process.env.TWINLINE_WATERMARK_KEY;
  if (!key)
    throw new ConfigError('cli_watermark_key', 'no watermark key: pass --key or set TWINLINE_WATERMARK_KEY', {
      where,
    });
  return key;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `twinline watermark decode`. Exit code 1 when no authentic watermark is found. */
export async function runWatermarkDecode(opts: WatermarkDecodeOptions): Promise<void> {
  const key = keyFrom(opts.key, 'twinline watermark decode');
  // A mark names its tenant only through the key that opens it: try the deployment's tenants.
  const tenants = opts.tenant?.length
    ? opts.tenant
    : [...new Set(loadConfig(opts.config).users.map((u) => u.tenant))];
  const text = opts.text ?? (await readStdin());
  const wm = decodeWatermark(text, { key, tenants });
  if (opts.json) process.stdout.write(`${JSON.stringify(wm ? { found: true, ...wm } : { found: false })}\n`);
  else if (wm)
    process.stdout.write(
      `tenant=${wm.tenant} user=${wm.user} session=${wm.session} channel=${wm.channel} frames=${wm.frames}\n`,
    );
  else process.stdout.write('no authentic watermark found\n');
  if (!wm) process.exitCode = 1;
}

/** `twinline watermark embed`. */
export async function runWatermarkEmbed(opts: WatermarkEmbedOptions): Promise<void> {
  const key = keyFrom(opts.key, 'twinline watermark embed');
  const text = opts.text ?? (await readStdin());
  process.stdout.write(
    embedWatermark(
      text,
      { tenant: opts.tenant, user: opts.user, session: opts.session, channel: opts.channel },
      { key },
    ),
  );
}

export interface WatermarkDecodeOptions {
  text?: string;
  json?: boolean;
  key?: string;
  tenant?: string[];
  config?: string;
}
export interface WatermarkEmbedOptions {
  tenant: string;
  user: string;
  session: string;
  channel: string;
  text?: string;
  key?: string;
}

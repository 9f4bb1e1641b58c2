import { ConfigError, configSource, importExternal } from '../../core/index.js';
import {
  type RouteDecision,
  type RouteOptions,
  type RouterModel,
  readRouterModel,
  route,
} from '../../router/index.js';
import { writeOut } from '../write-out.js';

function parseThreshold(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const t = Number(raw);
  if (!(t > 0 && t <= 1))
    throw new ConfigError('cli_threshold', `--threshold must be a number in (0, 1], got "${raw}"`, {
      where: 'twinline route',
    });
  return t;
}

const fixed = (x: number) => Number(x.toFixed(4));

function decisionJson(d: RouteDecision): Record<string, unknown> {
  const out: Record<string, unknown> = {
    target: d.target,
    scores: { deep: fixed(d.scores.deep), quick: fixed(d.scores.quick) },
    rule: d.rule,
    ...(d.routing ? { routing: d.routing } : {}),
  };
  if (d.reason) out.reason = d.reason;
  if (d.features) out.features = d.features;
  return out;
}

type Decide = (query: string, options: RouteOptions) => RouteDecision;

/**
 * The router of the config the command runs on. The built-in sample's router is the router
 * module's own default (the shipped office model and rules), so it needs no config loaded; any
 * other config's `router` section is built as `serve` builds it, and a rules-only router says so.
 */
async function routerFor(opts: RouteCliOptions): Promise<Decide> {
  const source = configSource(opts.config);
  if (!source.file) return route;
  const [{ loadConfig }, { createConfiguredRouter }] = await Promise.all([
    import('../../config/index.js'),
    import('../../router/index.js'),
  ]);
  const config = loadConfig(source.file);
  const router = createConfiguredRouter(config.router, `${config.file}: router`);
  if (router.notice) process.stderr.write(`twinline: ${router.notice}\n`);
  return (query, options) => router.route(query, options);
}

/** Runs `twinline route` once the router is loaded. */
export async function runRoute(request: string | undefined, opts: RouteCliOptions): Promise<void> {
  const options: RouteOptions & { model?: RouterModel } = { explain: opts.explain === true };
  if (opts.model !== undefined) options.model = readRouterModel(opts.model);
  const threshold = parseThreshold(opts.threshold);
  if (threshold !== undefined) options.threshold = threshold;
  const decide = await routerFor(opts);
  if (opts.jsonl) {
    if (request !== undefined)
      throw new ConfigError('cli_route_args', '--jsonl reads stdin; do not pass a request too', {
        where: 'twinline route',
      });
    await routeJsonl(options, decide);
    return;
  }
  if (request === undefined)
    throw new ConfigError('cli_route_args', 'give a request, or --jsonl to read stdin', {
      where: 'twinline route',
    });
  const d = decide(request, options);
  if (opts.json) {
    writeOut(`${JSON.stringify(decisionJson(d))}\n`);
    return;
  }
  writeOut(
    `${d.target}  deep=${d.scores.deep.toFixed(3)} quick=${d.scores.quick.toFixed(3)}  rule=${d.rule ?? '-'}${d.routing ? `  routing=${d.routing}` : ''}\n${
      d.features ? `${JSON.stringify(d.features, null, 2)}\n` : ''
    }`,
  );
}

/**
 * One decision per input line. A bad line yields an error line naming its number and the stream
 * carries on: one malformed record must not cost the rest of a batch.
 */
async function routeJsonl(options: RouteOptions, decide: Decide): Promise<void> {
  // only --jsonl reads lines: a one-shot run does not load readline
  const { createInterface } = await importExternal<typeof import('node:readline')>('node:readline');
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  const out: string[] = [];
  const flush = () => {
    if (out.length) {
      process.stdout.write(out.join(''));
      out.length = 0;
    }
  };
  for await (const line of lines) {
    n++;
    if (!line.trim()) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch (err) {
      out.push(`${JSON.stringify({ line: n, error: 'invalid_json', message: (err as Error).message })}\n`);
      continue;
    }
    const r = record as { id?: unknown; query?: unknown };
    if (
      !record ||
      typeof record !== 'object' ||
      Array.isArray(record) ||
      typeof r.query !== 'string' ||
      !(typeof r.id === 'string' || typeof r.id === 'number')
    ) {
      out.push(
        `${JSON.stringify({ line: n, ...(typeof r?.id === 'string' || typeof r?.id === 'number' ? { id: r.id } : {}), error: 'invalid_record', message: 'expected {"id": string|number, "query": string}' })}\n`,
      );
      continue;
    }
    out.push(`${JSON.stringify({ id: r.id, ...decisionJson(decide(r.query, options)) })}\n`);
    if (out.length >= 256) flush();
  }
  flush();
}

export interface RouteCliOptions {
  json?: boolean;
  jsonl?: boolean;
  threshold?: string;
  explain?: boolean;
  model?: string;
  config?: string;
}

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../../core/index.js';
import {
  domainTrainingReport,
  encodeRouterModel,
  type LabelledRequest,
  ROUTE_CLASSES,
  type RouteClass,
  trainForDomain,
} from '../../router/index.js';
import { writeOut } from '../write-out.js';

/** Fewest examples per label that still leave some for calibration and test. */
const MIN_PER_LABEL = 10;

/** Reads and checks the examples file; a bad line is an error naming the file and line. */
export function readExamples(path: string): LabelledRequest[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError('router_examples_unreadable', `cannot read ${path}: ${(err as Error).message}`, {
      where: 'twinline router train --examples',
    });
  }
  const rows: LabelledRequest[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${path}:${i + 1}`;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch (err) {
      throw new ConfigError('router_examples_json', `not JSON: ${(err as Error).message}`, { where });
    }
    const r = rec as { query?: unknown; text?: unknown; label?: unknown; _generated?: unknown };
    if (!rec || typeof rec !== 'object' || Array.isArray(rec))
      throw new ConfigError('router_examples_record', 'expected a JSON object', { where });
    if (r._generated !== undefined) return; // a generated file's header line
    const query = typeof r.query === 'string' ? r.query : typeof r.text === 'string' ? r.text : undefined;
    if (query === undefined)
      throw new ConfigError('router_examples_record', 'needs a string "query" (or "text")', { where });
    if (!(ROUTE_CLASSES as readonly unknown[]).includes(r.label))
      throw new ConfigError(
        'router_examples_label',
        `"label" must be ${ROUTE_CLASSES.join(' | ')}, got ${JSON.stringify(r.label)}`,
        { where },
      );
    rows.push({ query, label: r.label as RouteClass });
  });
  for (const label of ROUTE_CLASSES) {
    const n = rows.filter((r) => r.label === label).length;
    if (n < MIN_PER_LABEL)
      throw new ConfigError(
        'router_examples_few',
        `${n} examples labelled ${label}; at least ${MIN_PER_LABEL} of each label are needed`,
        {
          where: path,
        },
      );
  }
  return rows;
}

/** Runs `twinline router train`. */
export async function runRouterTrain(opts: RouterTrainCliOptions): Promise<void> {
  const threshold = opts.threshold === undefined ? undefined : Number(opts.threshold);
  if (threshold !== undefined && !(threshold > 0 && threshold <= 1))
    throw new ConfigError(
      'cli_threshold',
      `--threshold must be a number in (0, 1], got "${opts.threshold}"`,
      {
        where: 'twinline router train',
      },
    );
  const seed = Number(opts.seed);
  if (!Number.isInteger(seed))
    throw new ConfigError('cli_seed', `--seed must be an integer, got "${opts.seed}"`, {
      where: 'twinline router train',
    });
  const rows = readExamples(opts.examples);
  const result = trainForDomain(rows, { seed, ...(threshold !== undefined ? { threshold } : {}) });
  const out = resolve(opts.out);
  mkdirSync(out, { recursive: true });
  const weights = resolve(out, 'router-weights.json');
  const report = resolve(out, 'router-report.html');
  writeFileSync(
    weights,
    JSON.stringify(
      encodeRouterModel(result.model, {
        data: opts.examples,
        rows: rows.length,
        seed,
        testAccuracy: result.accuracy,
      }),
    ),
  );
  writeFileSync(report, domainTrainingReport(result, opts.examples));
  const summary = {
    weights,
    report,
    split: result.split,
    temperature: result.model.temperature,
    accuracy: result.accuracy,
    actionableRight: result.actionableRight,
    fallbackKept: result.fallbackKept,
    confusion: result.confusion,
  };
  writeOut(
    opts.json
      ? `${JSON.stringify(summary)}\n`
      : `trained on ${result.split.train} requests (temperature ${result.model.temperature}); test accuracy ${(100 * result.accuracy).toFixed(1)}% on ${result.split.test}\nweights: ${weights}\nreport:  ${report}\n`,
  );
}

export interface RouterTrainCliOptions {
  examples: string;
  out: string;
  threshold?: string;
  seed: string;
  json?: boolean;
}

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadConfig, type TwinlineConfig } from '../../config/index.js';
import { TwinlineError } from '../../core/index.js';
import { configPolicySchema, reviewStage, schemaStage } from '../../gateway/index.js';
import {
  createPolicyStages,
  loadPolicyFiles,
  loadReviewerFile,
  type PolicySchema,
  type ReviewerSet,
} from '../../policy/index.js';
import { ReviewService } from '../../review/index.js';
import { createRuntime, registerConfiguredTools } from '../../runtime/index.js';
import {
  openStore,
  REVIEW_STATUSES,
  type ReviewItem,
  type ReviewStatus,
  type Store,
} from '../../store/index.js';
import type { ConfigOption } from './open-runtime.js';

interface CommonOptions extends ConfigOption {
  readonly json?: boolean;
}
export interface ReviewsListOptions extends CommonOptions {
  readonly status?: string;
  readonly tenant?: string;
  readonly limit: string;
}
export interface ReviewsDecideOptions extends CommonOptions {
  readonly by: string;
  readonly note?: string;
}

async function openConfiguredStore(config: TwinlineConfig): Promise<Store> {
  const url = process.env['TWINLINE_DATABASE_URL'] || config.store.url;
  return openStore(url ? { url } : config.store.sqliteFile ? { sqliteFile: config.store.sqliteFile } : {});
}

/** `reviewers.yaml` next to the first policy file, when present. */
function reviewersFor(config: TwinlineConfig, schema: PolicySchema): ReviewerSet | undefined {
  const first = config.policies[0];
  if (!first) return undefined;
  const file = join(dirname(first), 'reviewers.yaml');
  return existsSync(file) ? loadReviewerFile(file, schema) : undefined;
}

/** The policy schema of the configured tools (MCP servers connected only to read their manifests). */
async function policySchemaOf(config: TwinlineConfig): Promise<PolicySchema> {
  const { registry, mcp } = await registerConfiguredTools(config);
  await Promise.allSettled(mcp.map((c) => c.close()));
  return configPolicySchema(config, registry.list());
}

export async function runReviewsList(opts: ReviewsListOptions): Promise<void> {
  const limit = Number(opts.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
    throw new TwinlineError(
      'cli.bad-limit',
      `expected an integer 1..10000, got ${JSON.stringify(opts.limit)}`,
      {
        where: '--limit',
      },
    );
  }
  if (opts.status !== undefined && !(REVIEW_STATUSES as readonly string[]).includes(opts.status)) {
    throw new TwinlineError('cli.bad-status', `expected one of ${REVIEW_STATUSES.join(', ')}`, {
      where: '--status',
    });
  }
  const config = loadConfig(opts.config);
  const store = await openConfiguredStore(config);
  try {
    // listing needs no gateway; expiring first keeps "pending" honest
    const service = new ReviewService({ reviews: store.reviews });
    await store.reviews.expire();
    const items = await service.list({
      ...(opts.status ? { status: opts.status as ReviewStatus } : {}),
      ...(opts.tenant ? { tenant: opts.tenant } : {}),
      limit,
    });
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
      return;
    }
    if (items.length === 0) {
      process.stdout.write('no reviews\n');
      return;
    }
    process.stdout.write(`${items.map(formatItem).join('\n')}\n`);
  } finally {
    await store.close();
  }
}

function formatItem(r: ReviewItem): string {
  return [
    r.id,
    r.status.padEnd(9),
    `${r.tenant}/${r.user}`.padEnd(16),
    r.tool.padEnd(24),
    JSON.stringify(r.args).slice(0, 80),
    r.decidedBy ? `by ${r.decidedBy}` : `expires ${r.expiresAt}`,
  ].join(' ');
}

export async function runReviewsDecide(
  decision: 'approve' | 'deny',
  id: string,
  opts: ReviewsDecideOptions,
): Promise<void> {
  const config = loadConfig(opts.config);
  // The policy pipeline re-runs on the approved call (the gateway skips only `review` and marks
  // the approval as the confirmation of intent).
  const schema = await policySchemaOf(config);
  const policy = loadPolicyFiles(config.policies, schema);
  const stages = policy ? [schemaStage, ...createPolicyStages(policy), reviewStage] : undefined;
  const runtime = await createRuntime(config, { store: true, ...(stages ? { stages } : {}) });
  try {
    const store = runtime.store as Store;
    const reviewers = reviewersFor(config, schema);
    const service = new ReviewService({
      reviews: store.reviews,
      gateway: runtime.gateway,
      ...(reviewers ? { reviewers } : {}),
    });
    await store.reviews.expire();
    const outcome =
      decision === 'approve'
        ? await service.approve(id, opts.by, opts.note)
        : await service.deny(id, opts.by, opts.note);
    if (outcome.status === 'missing') {
      throw new TwinlineError('reviews.not-found', `no review ${id}`, { where: id });
    }
    if (opts.json) {
      process.stdout.write(
        `${JSON.stringify({
          id,
          decided: outcome.decided,
          status: outcome.status,
          ...(outcome.execution
            ? {
                execution: {
                  status: outcome.execution.status,
                  decision: outcome.execution.decision,
                  output: outcome.execution.output,
                },
              }
            : {}),
        })}\n`,
      );
    } else if (!outcome.decided) {
      process.stdout.write(`review ${id} was not changed: it is ${outcome.status}\n`);
    } else {
      const ran = outcome.execution ? `; the call ${outcome.execution.status}` : '';
      process.stdout.write(
        `review ${id} ${decision === 'approve' ? 'approved' : 'denied'} by ${opts.by}${ran}\n`,
      );
    }
    if (!outcome.decided && !outcome.execution) process.exitCode = 1;
  } finally {
    await runtime.close();
  }
}

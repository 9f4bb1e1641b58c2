import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadConfig, type TwinlineConfig } from '../../config/index.js';
import { TwinlineError } from '../../core/index.js';
import { gatedReview } from '../../gates/index.js';
import { reviewStage, schemaStage } from '../../gateway/index.js';
import {
  createPolicyStages,
  loadPolicyFiles,
  loadReviewerFile,
  type ReviewerSet,
} from '../../policy/index.js';
import { ReviewService } from '../../review/index.js';
import { createRuntime } from '../../runtime/index.js';
import {
  openStore,
  REVIEW_STATUSES,
  type ReviewItem,
  type ReviewStatus,
  type Store,
} from '../../store/index.js';
import { CliEgress } from './cli-egress.js';
import type { ConfigOption } from './open-runtime.js';

interface CommonOptions extends ConfigOption {
  readonly json?: boolean;
}
export interface ReviewsListOptions extends CommonOptions {
  readonly status?: string;
  readonly tenant?: string;
  readonly limit: string;
  /** Print what this user of the directory may see (default: each review as its requester sees it). */
  readonly viewer?: string;
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
function reviewersFor(config: TwinlineConfig): ReviewerSet | undefined {
  const first = config.policies[0];
  if (!first) return undefined;
  const file = join(dirname(first), 'reviewers.yaml');
  return existsSync(file) ? loadReviewerFile(file) : undefined;
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
  // What is printed passes the egress gate (docs/gates.md, "Gated doors").
  const egress = new CliEgress(config);
  const named = opts.viewer ? egress.namedViewer(opts.viewer, opts.tenant, '--viewer') : undefined;
  const store = await openConfiguredStore(config);
  try {
    // listing needs no gateway; expiring first keeps "pending" honest
    const service = new ReviewService({ reviews: store.reviews });
    await store.reviews.expire();
    const items = (
      await service.list({
        ...(opts.status ? { status: opts.status as ReviewStatus } : {}),
        ...(opts.tenant ? { tenant: opts.tenant } : {}),
        limit,
      })
    ).map((r) => gatedReview(egress.gate(named ?? egress.viewer(r.tenant, r.user), r.sessionId), r));
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
  const stages =
    config.policies.length > 0
      ? [schemaStage, ...createPolicyStages(loadPolicyFiles(config.policies)), reviewStage]
      : undefined;
  const runtime = await createRuntime(config, { store: true, ...(stages ? { stages } : {}) });
  try {
    const store = runtime.store as Store;
    const reviewers = reviewersFor(config);
    const service = new ReviewService({
      reviews: store.reviews,
      gateway: runtime.gateway,
      ...(reviewers ? { reviewers } : {}),
    });
    await store.reviews.expire();
    const item = await store.reviews.get(id);
    const outcome =
      decision === 'approve'
        ? await service.approve(id, opts.by, opts.note)
        : await service.deny(id, opts.by, opts.note);
    if (outcome.status === 'missing' || !item) {
      throw new TwinlineError('reviews.not-found', `no review ${id}`, { where: id });
    }
    // The decider is sent what the call returned, gated for them (an unknown name sees level L1).
    const egress = new CliEgress(config);
    const gate = egress.gate(egress.viewer(item.tenant, opts.by), item.sessionId);
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
                  decision: gate.value(outcome.execution.decision),
                  output: gate.value(outcome.execution.output),
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

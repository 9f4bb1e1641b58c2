import { type Identity, TwinlineError } from '../../core/index.js';
import { gatedReview } from '../../gates/index.js';
import { ReviewService } from '../../review/index.js';
import { REVIEW_STATUSES, type ReviewItem, type ReviewStatus } from '../../store/index.js';
import { loadCommandConfig, openCommandStore } from './cli-config.js';
import { CliEgress } from './cli-egress.js';
import { listLimit } from './list-limit.js';
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

export async function runReviewsList(opts: ReviewsListOptions): Promise<void> {
  const limit = listLimit(opts.limit);
  if (opts.status !== undefined && !(REVIEW_STATUSES as readonly string[]).includes(opts.status)) {
    throw new TwinlineError('cli.bad-status', `expected one of ${REVIEW_STATUSES.join(', ')}`, {
      where: '--status',
    });
  }
  const config = loadCommandConfig(opts);
  // What is printed passes the egress gate (docs/gates.md, "Gated doors").
  const egress = new CliEgress(config);
  const named = opts.viewer ? egress.namedViewer(opts.viewer, opts.tenant, '--viewer') : undefined;
  const store = await openCommandStore(config);
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
  const config = loadCommandConfig(opts);
  // The same code as `twinline serve` and the console: the platform's review workflow, whose
  // replay gateways run every slot of the line the call came from again, as the requester is now.
  const { createPlatform } = await import('../../platform/index.js');
  const platform = await createPlatform(config);
  try {
    await platform.store.reviews.expire();
    const item = await platform.store.admin.reviews.get(id);
    if (!item) throw new TwinlineError('reviews.not-found', `no review ${id}`, { where: id });
    // The operator decides as a directory user of the review's tenant, or under the name given.
    const reviewer: Identity = platform.runtime.identities.find(opts.by, item.tenant) ?? {
      tenant: item.tenant,
      user: opts.by,
      roles: ['operator'],
      dataLevel: 'L1',
      attributes: {},
    };
    const outcome =
      decision === 'approve'
        ? await platform.approveReview(reviewer, id, opts.note)
        : await platform.denyReview(reviewer, id, opts.note);
    if (opts.json) {
      process.stdout.write(
        `${JSON.stringify({
          id,
          decided: outcome.decided,
          status: outcome.status,
          ...(outcome.refused ? { refused: outcome.refused } : {}),
          ...(outcome.execution ? { execution: outcome.execution } : {}),
        })}\n`,
      );
    } else if (outcome.refused) {
      process.stdout.write(`review ${id} was not changed: ${outcome.refused.reason}\n`);
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
    await platform.close();
  }
}

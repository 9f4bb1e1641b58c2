import { randomUUID } from 'node:crypto';
import type { GatewayResult } from '../../gateway/index.js';
import { PROFILES, RegisteredNames, reviewReplayProfile } from '../../pipeline/index.js';
import { ReviewService } from '../../review/index.js';
import { DEMO_STEPS } from './demo-script.js';
import { type ConfigOption, openRuntime } from './open-runtime.js';

export interface DemoOptions extends ConfigOption {
  readonly json?: boolean;
}

interface DemoLine {
  readonly tenant: string;
  readonly user: string;
  readonly tool: string;
  readonly status: string;
  readonly stage: string;
  readonly ruleId: string;
  readonly summary: string;
  readonly reviewId?: string;
}

/**
 * Runs the scripted calls through the real gateway (audited in the configured store), then
 * approves the queued reviews as `demo-reviewer` and runs them, so both halves of review show.
 */
export async function runDemo(opts: DemoOptions): Promise<void> {
  const rt = await openRuntime(opts, true);
  const out: DemoLine[] = [];
  const say = (text: string) => {
    if (!opts.json) process.stdout.write(`${text}\n`);
  };
  try {
    const sessionId = `demo-${randomUUID()}`;
    say(`Twinline demo — domain ${rt.config.domain}, ${rt.registry.size} tools, session ${sessionId}\n`);
    for (const step of DEMO_STEPS) {
      const identity = rt.identities.resolve(step.user, step.tenant);
      const r = await rt.gateway.invoke(
        { id: randomUUID(), name: step.tool, arguments: step.args },
        { identity, sessionId, domain: 'demo', declaredCapabilities: step.declares ?? [] },
      );
      const line = toLine(step.tenant, step.user, step.tool, r);
      out.push(line);
      say(`# ${step.note}`);
      say(format(line));
    }
    const store = rt.store!;
    // Approvals run on the library profile's review replay: every slot decides again.
    const service = new ReviewService({
      reviews: store.reviews,
      gateway: rt.pipeline.gateway(reviewReplayProfile(PROFILES.library), {
        tools: rt.registry,
        allow: new RegisteredNames(rt.registry),
      }),
      resolveIdentity: (tenant, user) => rt.identities.find(user, tenant),
    });
    for (const line of out.filter((l) => l.reviewId)) {
      const review = await store.reviews.get(line.reviewId!);
      if (!review) continue;
      const r = (await service.approve(review.id, 'demo-reviewer', 'demo')).execution;
      if (!r) continue;
      const done = toLine(review.tenant, review.user, review.tool, r);
      out.push(done);
      say(`# reviewer approves review ${review.id}; the gateway re-checks and runs it once`);
      say(format(done));
    }
    await store.audit.flush();
    const audited = await store.audit.query({
      limit: 10_000,
      since: new Date(Date.now() - 3600_000).toISOString(),
    });
    const mine = audited.filter((a) => a.sessionId === sessionId || a.callId.startsWith('review-'));
    say(`\n${mine.length} audit records written (see: npx twinline audit --limit 20)`);
    if (opts.json) process.stdout.write(`${JSON.stringify({ sessionId, results: out }, null, 2)}\n`);
  } finally {
    await rt.close();
  }
}

function toLine(tenant: string, user: string, tool: string, r: GatewayResult): DemoLine {
  return {
    tenant,
    user,
    tool,
    status: r.status,
    stage: r.decision.stage,
    ruleId: r.decision.ruleId,
    summary: r.status === 'executed' ? describe(r.output) : (r.error?.message ?? r.decision.reason),
    ...(r.reviewId ? { reviewId: r.reviewId } : {}),
  };
}

function describe(output: unknown): string {
  if (!output || typeof output !== 'object') return String(output);
  const parts = Object.entries(output as Record<string, unknown>).map(([k, v]) =>
    Array.isArray(v) ? `${v.length} ${k}` : typeof v === 'number' ? `${k} ${v}` : k,
  );
  return parts.join(', ');
}

function format(l: DemoLine): string {
  const mark = l.status === 'executed' ? 'ALLOW ' : l.status === 'review' ? 'REVIEW' : 'DENY  ';
  return `  ${mark} ${`${l.tenant}/${l.user}`.padEnd(14)} ${l.tool.padEnd(22)} ${l.status.padEnd(8)} [${l.stage}/${l.ruleId}] ${l.summary}`;
}

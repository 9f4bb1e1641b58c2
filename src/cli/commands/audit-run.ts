import { TwinlineError } from '../../core/index.js';
import { gatedAuditRecord } from '../../gates/index.js';
import { loadCommandConfig, openCommandStore } from './cli-config.js';
import { CliEgress } from './cli-egress.js';
import { listLimit } from './list-limit.js';
import type { ConfigOption } from './open-runtime.js';

export interface AuditOptions extends ConfigOption {
  readonly tenant?: string;
  readonly user?: string;
  readonly tool?: string;
  readonly since?: string;
  readonly limit: string;
  readonly json?: boolean;
}

export async function runAudit(opts: AuditOptions): Promise<void> {
  const limit = listLimit(opts.limit);
  let since: string | undefined;
  if (opts.since !== undefined) {
    const t = Date.parse(opts.since);
    if (!/^\d{4}-\d{2}-\d{2}/.test(opts.since) || Number.isNaN(t)) {
      throw new TwinlineError(
        'cli.bad-since',
        `expected an ISO-8601 time, got ${JSON.stringify(opts.since)}`,
        {
          where: '--since',
        },
      );
    }
    since = new Date(t).toISOString();
  }
  const config = loadCommandConfig(opts);
  // Only the store is needed: no tools are loaded to read the trail.
  const store = await openCommandStore(config);
  try {
    const records = await store.audit.query({
      ...(opts.tenant ? { tenant: opts.tenant } : {}),
      ...(opts.user ? { user: opts.user } : {}),
      ...(opts.tool ? { tool: opts.tool } : {}),
      ...(since ? { since } : {}),
      limit,
    });
    if (opts.json) {
      // Summaries can quote a tool's error text: printed as the record's user may see them.
      const egress = new CliEgress(config);
      const gated = records.map((r) =>
        gatedAuditRecord(egress.gate(egress.viewer(r.tenant, r.user), r.sessionId), r),
      );
      process.stdout.write(`${JSON.stringify(gated, null, 2)}\n`);
      return;
    }
    if (records.length === 0) {
      process.stdout.write('no audit records\n');
      return;
    }
    const lines = records.map((r) => {
      // What decided it: for an executed call the grant that allowed it (docs/operations.md).
      const d =
        r.decidedBy ??
        r.decisionPath.find((s) => s.verdict !== 'allow') ??
        r.decisionPath[r.decisionPath.length - 1];
      const rule = d ? `${d.stage}/${d.ruleId}` : '';
      return [r.time, `${r.tenant}/${r.user}`.padEnd(16), r.tool.padEnd(24), r.status.padEnd(9), rule].join(
        ' ',
      );
    });
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await store.close();
  }
}

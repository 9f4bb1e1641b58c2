import { ConfigError } from '../core/index.js';
import {
  CanaryService,
  type CanaryStatus,
  DEFAULT_ROLLBACK_POLICY,
  type VersionMetrics,
} from '../rollout/index.js';
import { openStore } from '../store/index.js';
import { loadSuites } from './load-suite.js';
import { runSuites } from './run-suite.js';

/** Options of `twinline canary …` as commander hands them over. */
export interface CanaryCommandOptions {
  version?: string;
  config?: string;
  percent?: string;
  label?: string;
  reason?: string;
  store?: string;
  json?: boolean;
  maxSuccessDrop?: string;
}

const print = (opts: CanaryCommandOptions, value: unknown, text: string) =>
  process.stdout.write(opts.json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);

const rate = (m: VersionMetrics | undefined) =>
  m
    ? `${m.total} measured, success ${m.total ? ((m.passed / m.total) * 100).toFixed(1) : '-'}%, misuse ${m.misuse}`
    : 'no metrics';

function statusText(s: CanaryStatus): string {
  const lines = [
    `stable:  ${s.stable ? `${s.stable.version} (${s.stable.configPath}, ${s.stable.configHash.slice(0, 12)})` : '(none promoted: serve uses its own config)'}`,
  ];
  lines.push(`         ${rate(s.metrics.stable)}`);
  if (s.rollout) {
    lines.push(
      `canary:  ${s.rollout.canaryVersion} to ${s.rollout.percent}% of users since ${s.rollout.startedAt}`,
    );
    lines.push(`         ${rate(s.metrics.canary)}`);
  } else lines.push('canary:  none running');
  if (s.history.length > 0) {
    lines.push('history:');
    for (const r of s.history)
      lines.push(
        `  ${r.startedAt} ${r.canaryVersion} ${r.percent}% ${r.status}${r.reason ? ` (${r.reason})` : ''}`,
      );
  }
  return lines.join('\n');
}

/** Runs one `twinline canary` action against the store; returns the exit code. */
export async function runCanaryCommand(
  action: string,
  opts: CanaryCommandOptions,
  suites: readonly string[],
): Promise<number> {
  const store = await openStore(opts.store ? { url: opts.store } : {});
  try {
    const canary = new CanaryService(store);
    switch (action) {
      case 'start': {
        const percent = Number(opts.percent);
        if (!Number.isFinite(percent)) {
          throw new ConfigError('canary.bad-percent', `--percent must be a number, got "${opts.percent}"`, {
            where: 'canary start',
          });
        }
        const r = await canary.start({
          version: opts.version!,
          config: opts.config!,
          percent,
          ...(opts.label ? { label: opts.label } : {}),
        });
        print(
          opts,
          r,
          `canary ${r.canaryVersion} started for ${r.percent}% of users (stable: ${r.stableVersion ?? 'own config'})`,
        );
        return 0;
      }
      case 'status': {
        const s = await canary.status();
        print(opts, s, statusText(s));
        return 0;
      }
      case 'promote': {
        const r = await canary.promote(opts.reason);
        print(opts, r, `${r.canaryVersion} is now the stable version`);
        return 0;
      }
      case 'rollback': {
        const r = await canary.rollback(opts.reason);
        const s = await canary.status();
        print(
          opts,
          r,
          `${r.canaryVersion} rolled back; everyone is served ${s.stable?.version ?? 'the default config'}`,
        );
        return 0;
      }
      case 'evaluate':
        return await evaluate(canary, opts, suites);
      default:
        throw new ConfigError('canary.unknown-action', `unknown canary action ${action}`, {
          where: 'canary',
        });
    }
  } finally {
    await store.close();
  }
}

/** Runs the suites on the canary's and the stable version's config, records both, and applies automatic rollback. */
async function evaluate(
  canary: CanaryService,
  opts: CanaryCommandOptions,
  suitePaths: readonly string[],
): Promise<number> {
  const rollout = await canary.running();
  if (!rollout)
    throw new ConfigError('canary.none-running', 'no roll-out is running', { where: 'canary evaluate' });
  const suites = loadSuites(suitePaths);
  const measure = async (config: string | undefined): Promise<VersionMetrics> => {
    const report = await runSuites(suites, config ? { config } : {});
    return {
      total: report.summary.scenarios,
      passed: report.summary.passed,
      misuse: report.summary.misuse_calls,
    };
  };
  const canaryVersion = await canary.getVersion(rollout.canaryVersion);
  const canaryMetrics = await measure(canaryVersion?.configPath);
  await canary.recordMetrics(rollout.canaryVersion, canaryMetrics);
  if (rollout.stableVersion) {
    const stable = await canary.getVersion(rollout.stableVersion);
    await canary.recordMetrics(rollout.stableVersion, await measure(stable?.configPath));
  }
  const maxSuccessDrop =
    opts.maxSuccessDrop !== undefined ? Number(opts.maxSuccessDrop) : DEFAULT_ROLLBACK_POLICY.maxSuccessDrop;
  const verdict = await canary.checkAutoRollback({ ...DEFAULT_ROLLBACK_POLICY, maxSuccessDrop });
  print(
    opts,
    { canary: rollout.canaryVersion, metrics: canaryMetrics, ...verdict },
    `${rollout.canaryVersion}: ${rate(canaryMetrics)}\n${verdict.rolledBack ? `ROLLED BACK automatically: ${verdict.reason}` : `kept: ${verdict.reason}`}`,
  );
  return verdict.rolledBack ? 1 : 0;
}

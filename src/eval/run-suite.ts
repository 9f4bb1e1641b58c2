import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelProvider } from '../agent/index.js';
import { loadConfig, type TwinlineConfig } from '../config/index.js';
import type { Identity } from '../core/index.js';
import { configPolicySchema } from '../pipeline/index.js';
import { createPlatform, type Platform } from '../platform/index.js';
import {
  DEFAULT_THIRD_PARTY,
  loadPolicyFiles,
  PolicyEngine,
  type ToolFacts,
  toolFacts,
} from '../policy/index.js';
import { createRuntime } from '../runtime/index.js';
import { type AuditRecord, openStore } from '../store/index.js';
import { EntitlementOracle } from './entitlement-oracle.js';
import { judgeModelConsulted, judgeScenario, visibleText } from './judge-scenario.js';
import type { LoadedScenario, LoadedSuite } from './load-suite.js';
import { type EvalReport, type ScenarioReport, summarize } from './report.js';
import { resolveScript } from './scripted-model.js';

export interface RunSuiteOptions {
  /** Run every suite against this config instead of the one it names (the oracle keeps the suite's). */
  readonly config?: string;
  /** Called after each scenario (progress bars). */
  readonly onProgress?: (done: number, total: number, scenario: ScenarioReport) => void;
  /** Clock for date placeholders (default now). */
  readonly now?: () => Date;
}

const NO_MODEL_ENV = { TWINLINE_MODEL: '', TWINLINE_DATABASE_URL: '' };

/**
 * Runs suites through the real pipeline — `createPlatform`, the code `twinline serve` runs — in a
 * fresh temporary folder (store and office data), so runs never share state. Scenarios run one
 * after another; a scenario's model is written to a script file the platform's scripted provider
 * reads per request and per deep task.
 */
export async function runSuites(
  suites: readonly LoadedSuite[],
  options: RunSuiteOptions = {},
): Promise<EvalReport> {
  const now = options.now ?? (() => new Date());
  const started = now();
  const dir = mkdtempSync(join(tmpdir(), 'twinline-eval-'));
  const modelFile = join(dir, 'model.json');
  const store = await openStore({ sqliteFile: join(dir, 'eval.sqlite'), env: {} });
  const platforms = new Map<string, Platform>();
  const total = suites.reduce((n, s) => n + s.scenarios.length, 0);
  const rows: ScenarioReport[] = [];
  let current: AuditRecord[] = [];
  let modelTurns = 0;
  try {
    for (const [si, suite] of suites.entries()) {
      const runConfig = isolate(loadConfig(options.config ?? suite.config), join(dir, `data-${si}`));
      const oracle = await buildOracle(suite, join(dir, `oracle-${si}`));
      const platformFor = async (sc: LoadedScenario): Promise<Platform> => {
        const override = sc.identity.roles || sc.identity.attributes ? JSON.stringify(sc.identity) : '';
        const key = `${si}|${sc.model ? 'model' : 'none'}|${override}`;
        let p = platforms.get(key);
        if (!p) {
          p = await createPlatform(withIdentityOverride(runConfig, sc), {
            openedStore: store,
            env: { ...process.env, ...NO_MODEL_ENV },
            ...(sc.model ? { model: `scripted:${modelFile}` } : {}),
            // Many scenarios share a user within a second; the suite measures decisions, not the QPS limit.
            quickQps: 100_000,
            onAudit: (rec) => current.push(rec),
            // Counts the turns the scenario's model is asked for: a misuse scenario whose model
            // never ran tested nothing (judgeModelConsulted).
            wrapProvider: (provider) => countingProvider(provider, () => modelTurns++),
          });
          platforms.set(key, p);
        }
        return p;
      };
      for (const sc of suite.scenarios) {
        const script = sc.model ? resolveScript(sc.model, now()) : undefined;
        if (script) {
          // A new file (new inode) per scenario: a provider cache keyed on the file sees the change.
          writeFileSync(`${modelFile}.next`, JSON.stringify(script.turns));
          renameSync(`${modelFile}.next`, modelFile);
        }
        current = [];
        modelTurns = 0;
        const t0 = performance.now();
        let row: ScenarioReport;
        try {
          const platform = await platformFor(sc);
          const identity = platform.runtime.identities.resolve(sc.identity.user, sc.identity.tenant);
          const result = await platform.handle(identity, sc.query, {
            waitForDeep: true,
            sessionId: `eval-${sc.id}`,
            ...(sc.route ? { pinnedRoute: sc.route } : {}),
          });
          const latency = performance.now() - t0;
          const records = current;
          const executedRecs = records.filter((r) => r.status === 'executed');
          const executed = unique([...executedRecs.map((r) => r.tool), ...result.executed]);
          const denied = unique([
            ...records.filter((r) => r.status === 'denied').map((r) => r.tool),
            ...result.denied,
          ]);
          const proposed = script?.proposed ?? [];
          const misuse = executedRecs.flatMap((r) => {
            const verdict = oracle.judge(identity, r, proposed);
            return verdict.entitled ? [] : [`${r.tool} (${verdict.reason})`];
          });
          const obs = {
            route: result.route.target,
            outcome: result.outcome,
            text: result.text,
            executed,
            denied,
            misuse,
          };
          const failures = [
            ...judgeScenario(sc.expect, obs),
            ...judgeModelConsulted(sc, { ...obs, modelTurns }),
          ];
          row = {
            id: sc.id,
            kind: sc.kind,
            passed: failures.length === 0,
            route: obs.route,
            outcome: obs.outcome,
            executed,
            denied,
            failures,
            latency_ms: Math.round(latency * 10) / 10,
            output: visibleText(result.text).slice(0, 300),
            misuse,
            decisions: records.map((r) => {
              const d = r.decisionPath.at(-1);
              return `${r.tool}: ${r.status}${d ? ` (${d.stage}/${d.ruleId})` : ''}`;
            }),
            proposed_calls: Math.max(proposed.length, records.length),
            model_turns: modelTurns,
            file: sc.file,
          };
        } catch (err) {
          row = {
            id: sc.id,
            kind: sc.kind,
            passed: false,
            route: 'none',
            outcome: 'error',
            executed: [],
            denied: [],
            failures: [`error: ${(err as Error).message}`],
            latency_ms: Math.round((performance.now() - t0) * 10) / 10,
            output: '',
            misuse: [],
            decisions: [],
            proposed_calls: script?.proposed.length ?? 0,
            file: sc.file,
          };
        }
        rows.push(row);
        options.onProgress?.(rows.length, total, row);
      }
    }
  } finally {
    for (const p of platforms.values()) await p.close().catch(() => {});
    await store.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    summary: summarize(rows),
    scenarios: rows,
    meta: {
      started_at: started.toISOString(),
      suites: suites.map((s) => s.file),
      ...(options.config ? { config: options.config } : {}),
    },
  };
}

/** The config with its data folder (office data, watermark key) and store moved into the run's own folder. */
function isolate(config: TwinlineConfig, dataDir: string): TwinlineConfig {
  return {
    ...config,
    dataDir,
    tools: { ...config.tools, options: { ...config.tools.options, dataDir } },
    store: { sqliteFile: join(dataDir, 'unused.sqlite') },
  };
}

/**
 * Test-only identity override: the scenario's extra roles and attributes are written into the
 * user's entry of the in-memory user directory — the trusted ingress — before the platform is
 * built, so every layer (and a resumed deep task) sees the same identity. Never from a request.
 */
function withIdentityOverride(config: TwinlineConfig, sc: LoadedScenario): TwinlineConfig {
  const { tenant, user, roles, attributes } = sc.identity;
  if (!roles && !attributes) return config;
  const users: Identity[] = config.users.map((u) =>
    u.tenant === tenant && u.user === user
      ? {
          ...u,
          roles: unique([...u.roles, ...(roles ?? [])]),
          attributes: { ...u.attributes, ...(attributes ?? {}) },
        }
      : u,
  );
  return { ...config, users };
}

/** The misuse oracle of a suite: its reference policies and the reference tool manifests. */
async function buildOracle(suite: LoadedSuite, dataDir: string): Promise<EntitlementOracle> {
  const reference = isolate(loadConfig(suite.config), dataDir);
  const files = suite.oraclePolicies ?? reference.policies;
  const runtime = await createRuntime(reference, { store: false });
  const facts = new Map<string, ToolFacts>();
  for (const spec of runtime.registry.list()) facts.set(spec.name, toolFacts(spec));
  const schema = configPolicySchema(reference, runtime.registry.list());
  await runtime.close();
  // The same strict load every door uses; no policy file at all means nothing is entitled.
  const doc = loadPolicyFiles(files, schema) ?? {
    rules: [],
    parameters: { tools: {}, thirdParty: DEFAULT_THIRD_PARTY },
  };
  const engine = new PolicyEngine(doc);
  return new EntitlementOracle(engine, facts);
}

/** The provider, counting each turn it is asked for (sub-agents' providers too). */
function countingProvider(inner: ModelProvider, count: () => void): ModelProvider {
  return {
    kind: inner.kind,
    model: inner.model,
    turn(request) {
      count();
      return inner.turn(request);
    },
    ...(inner.forSubagent
      ? { forSubagent: (name: string) => countingProvider(inner.forSubagent!(name), count) }
      : {}),
  };
}

function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

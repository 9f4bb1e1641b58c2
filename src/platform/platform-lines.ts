import { createAccessPort, type ModelProvider } from '../agent/index.js';
import { resolveDeepAdmission, type TwinlineConfig } from '../config/index.js';
import type { Identity } from '../core/index.js';
import {
  DeepLine,
  type DeepPrompts,
  ModelPlanner,
  QuickLine,
  ReadonlyLine,
  type RecentSummaries,
} from '../lines/index.js';
import { DeepAdmission } from '../resilience/index.js';
import { endedReview } from '../review/index.js';
import type { Store } from '../store/index.js';
import type { Telemetry, TwinlineLogger } from '../telemetry/index.js';
import type { LineGateways } from './line-gateways.js';
import { unavailableProvider } from './line-models.js';
import type { PlatformOptions } from './platform-types.js';
import { degradedDeepAnswer } from './request-observers.js';
import { TaskScheduler } from './task-scheduler.js';

/** What the three lines are built from. */
export interface PlatformLinesDeps {
  readonly config: TwinlineConfig;
  readonly options: Pick<PlatformOptions, 'taskLeaseMs' | 'deepConcurrency'>;
  readonly store: Store;
  readonly lines: LineGateways;
  /** A fresh model provider per request or task run (`lineModels`). */
  readonly newProvider: () => ModelProvider | undefined;
  readonly resolveIdentity: (tenant: string, user: string) => Identity | undefined;
  readonly context: RecentSummaries;
  readonly logger?: TwinlineLogger | undefined;
  readonly telemetry?: Telemetry | undefined;
  readonly now: () => Date;
}

/** The lines of the platform, each on its own gateway, and the deep line's fair admission. */
export interface PlatformLines {
  readonly readonly: ReadonlyLine;
  readonly deep: DeepLine;
  readonly quick: QuickLine;
  readonly deepQueue: DeepAdmission;
  /** Runs, cancels, continues and resumes deep tasks through `deepQueue`. */
  readonly scheduler: TaskScheduler;
  /** The domain's deep-line prompts (`prompts.planner`, `prompts.composer`). */
  readonly deepPrompts: DeepPrompts;
}

/**
 * Builds the read-only, deep and quick lines over their gateways (docs/lines.md): the deep line
 * with a planner per task run, the store's view of how a review ended and the read-only line as
 * its degraded path; its admission caps shared in the store on PostgreSQL, and the scheduler of
 * its tasks.
 */
export function platformLines(deps: PlatformLinesDeps): PlatformLines {
  const { config, options, store, lines, newProvider, resolveIdentity, context, now } = deps;
  const deepPrompts: DeepPrompts = {
    ...(config.prompts?.planner ? { planner: config.prompts.planner } : {}),
    ...(config.prompts?.composer ? { composer: config.prompts.composer } : {}),
  };
  const retrieval = config.lines.retrieval;
  const readonly = new ReadonlyLine({
    gateway: lines.gateways.readonly,
    ...(retrieval ? { searchTool: retrieval } : {}),
    createTicket: (t) => store.forTenant(t.tenant).tickets.create(t),
  });
  const deepTools = lines.tools.deep;
  const deep = new DeepLine({
    tasksFor: (t) => store.forTenant(t).tasks,
    gateway: lines.gateways.deep,
    tools: deepTools,
    allowlist: deepTools.names,
    // A planner per task run: a scripted model replays its script for each task.
    planner: () => new ModelPlanner(newProvider() ?? unavailableProvider(), now, deepPrompts),
    resolveIdentity,
    ...(options.taskLeaseMs ? { leaseMs: options.taskLeaseMs } : {}),
    now,
    context,
    reviewOutcome: async (tenant, reviewId) => {
      const item = await store.forTenant(tenant).reviews.get(reviewId);
      return item ? endedReview(item) : undefined;
    },
    degrade: degradedDeepAnswer(readonly, deps.logger),
  });
  const admission = resolveDeepAdmission(config.lines.deepAdmission, options.deepConcurrency, config.file);
  const deepQueue = new DeepAdmission({
    limits: admission,
    maxQueuedPerTenant: admission.maxQueuedPerTenant,
    // Scaled out on PostgreSQL, the caps hold across every process, kept in the store like leases
    // (and lapsing like them when a process dies).
    ...(store.dialect === 'postgres' ? { slots: store.admission } : {}),
    ...(options.taskLeaseMs ? { slotTtlMs: options.taskLeaseMs } : {}),
  });
  const quick = new QuickLine({
    gateway: lines.gateways.quick,
    catalog: lines.tools.quick,
    access: createAccessPort(),
    now,
    context,
    ...(config.prompts?.quick ? { systemPrompt: config.prompts.quick } : {}),
  });
  const scheduler = new TaskScheduler({
    deep,
    deepQueue,
    tasksFor: (t) => store.forTenant(t).tasks,
    allTasks: store.admin.tasks,
    onQueueWait: (seconds) => deps.telemetry?.metrics?.queueWait('deep', seconds),
  });
  return { readonly, deep, quick, deepQueue, scheduler, deepPrompts };
}

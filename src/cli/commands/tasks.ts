import type { Command } from 'commander';
import type { CommandModule } from './command-module.js';
import { CONFIG_HELP, DATA_DIR_HELP } from './option-help.js';

interface TasksOptions {
  readonly json?: boolean;
  readonly tenant?: string;
  readonly status?: string;
  readonly limit: string;
  readonly config?: string;
  readonly dataDir?: string;
  readonly viewer?: string;
}
interface TaskShowOptions {
  readonly json?: boolean;
  readonly config?: string;
  readonly dataDir?: string;
  readonly watch?: boolean;
  readonly interval: string;
  readonly viewer?: string;
}

const VIEWER_HELP =
  'print what this user of the directory may see (default: each task as its requester sees it)';

/** `twinline tasks [--json] [--tenant T] [--status S]` and `twinline tasks show ID`: deep-line tasks. */
export const tasksCommand: CommandModule = {
  register(program: Command) {
    const tasks = program
      .command('tasks')
      .description('Deep-line tasks and their live step state (from the store)')
      .option('--json', 'print JSON')
      .option('--tenant <tenant>', 'only this tenant')
      .option('--status <status>', 'queued | planning | running | awaiting_review | completed | failed | …')
      .option('--limit <n>', 'at most this many', '50')
      .option('--config <file>', CONFIG_HELP)
      .option('--data-dir <dir>', DATA_DIR_HELP)
      .option('--viewer <user>', VIEWER_HELP)
      .action(async (opts: TasksOptions) => {
        await listTasks(opts);
      });
    tasks
      .command('show <id>')
      .description('One task: its request, status, plan and every step (status, tool, summary)')
      .option('--json', 'print JSON')
      .option('--watch', 'redraw until the task ends')
      .option('--interval <ms>', 'refresh period with --watch', '1000')
      .option('--config <file>', CONFIG_HELP)
      .option('--data-dir <dir>', DATA_DIR_HELP)
      .option('--viewer <user>', VIEWER_HELP)
      .action(async (id: string, _opts: TaskShowOptions, cmd: Command) => {
        // `--json` and `--config` may be parsed by the parent `tasks` command: merge them in.
        await showTask(id, cmd.optsWithGlobals<TaskShowOptions>());
      });
  },
};

type Store = import('../../store/index.js').Store;
type TaskRecord = import('../../store/index.js').TaskRecord;
type StepRecord = import('../../store/index.js').StepRecord;
type EgressGate = import('../../gates/index.js').EgressGate;
type ReadTaskState = typeof import('../../lines/index.js').readTaskState;

const FINAL = new Set(['completed', 'failed', 'cancelled', 'denied']);

// The store (and its database driver) is imported only when the command runs.
async function openTaskStore(
  configFile: string | undefined,
  dataDir: string | undefined,
  viewer: string | undefined,
  viewerTenant: string | undefined,
): Promise<{ store: Store; gateFor: (task: TaskRecord) => EgressGate; readState: ReadTaskState }> {
  const [{ loadCommandConfig, openCommandStore }, { CliEgress }, { readTaskState }] = await Promise.all([
    import('./cli-config.js'),
    import('./cli-egress.js'),
    import('../../lines/index.js'),
  ]);
  const config = loadCommandConfig({
    ...(configFile ? { config: configFile } : {}),
    ...(dataDir ? { dataDir } : {}),
  });
  // What is printed passes the egress gate (docs/gates.md, "Gated doors").
  const egress = new CliEgress(config);
  const named = viewer ? egress.namedViewer(viewer, viewerTenant, '--viewer') : undefined;
  const gateFor = (task: TaskRecord) => egress.gate(named ?? egress.viewer(task.tenant, task.user), task.id);
  const store = await openCommandStore(config);
  return { store, gateFor, readState: readTaskState };
}

async function listTasks(opts: TasksOptions): Promise<void> {
  const { listLimit } = await import('./list-limit.js');
  const limit = listLimit(opts.limit);
  const { store, gateFor, readState } = await openTaskStore(
    opts.config,
    opts.dataDir,
    opts.viewer,
    opts.tenant,
  );
  try {
    const tasks = await store.admin.tasks.listTasks({
      ...(opts.tenant ? { tenant: opts.tenant } : {}),
      ...(opts.status ? { status: opts.status } : {}),
      limit,
    });
    if (opts.json) {
      process.stdout.write(
        `${JSON.stringify(
          tasks.map((t) => taskView(t, gateFor(t), readState)),
          null,
          2,
        )}\n`,
      );
      return;
    }
    if (tasks.length === 0) {
      process.stdout.write('no tasks\n');
      return;
    }
    process.stdout.write(`${tasks.map((t) => formatTask(t, gateFor(t), readState)).join('\n')}\n`);
  } finally {
    await store.close();
  }
}

async function showTask(id: string, opts: TaskShowOptions): Promise<void> {
  const { store, gateFor, readState } = await openTaskStore(
    opts.config,
    opts.dataDir,
    opts.viewer,
    undefined,
  );
  try {
    const interval = Math.max(100, Number(opts.interval) || 1000);
    for (;;) {
      const task = await store.admin.tasks.getTask(id);
      if (!task) {
        const { TwinlineError } = await import('../../core/index.js');
        throw new TwinlineError('tasks.not-found', `no task ${id}`, { where: id });
      }
      const gate = gateFor(task);
      const { gatedSteps } = await import('../../gates/index.js');
      const steps = gatedSteps(gate, await store.admin.tasks.getSteps(id));
      const view = taskView(task, gate, readState);
      if (opts.json) process.stdout.write(`${JSON.stringify({ ...view, steps }, null, 2)}\n`);
      else process.stdout.write(`${formatDetail(task, view, steps)}\n`);
      if (!opts.watch || FINAL.has(task.status)) return;
      await new Promise((r) => setTimeout(r, interval));
      if (!opts.json) process.stdout.write('\n');
    }
  } finally {
    await store.close();
  }
}

/**
 * A task without its internal planner state: the plan's goal and steps count, and the answer —
 * its texts through the egress gate.
 */
function taskView(t: TaskRecord, gate: EgressGate, readState: ReadTaskState) {
  const state = readState(t);
  return {
    id: t.id,
    tenant: t.tenant,
    user: t.user,
    line: t.line,
    status: t.status,
    request: gate.value(t.request),
    goal: state?.plan ? gate.value(state.plan.goal) : null,
    steps: state?.plan?.steps.length ?? 0,
    currentStep: t.currentStep,
    answer: state?.final !== undefined ? gate.text(state.final) : null,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    leaseOwner: t.leaseOwner ?? null,
    leaseUntil: t.leaseUntil ?? null,
  };
}

function formatTask(t: TaskRecord, gate: EgressGate, readState: ReadTaskState): string {
  const v = taskView(t, gate, readState);
  return [
    t.id,
    t.status.padEnd(15),
    `${t.tenant}/${t.user}`.padEnd(16),
    `${v.currentStep}/${v.steps}`.padEnd(7),
    t.updatedAt,
    v.request.replace(/\s+/g, ' ').slice(0, 60),
  ].join(' ');
}

function formatDetail(t: TaskRecord, v: ReturnType<typeof taskView>, steps: readonly StepRecord[]): string {
  const lines = [
    `task ${t.id}  ${t.status}  ${t.tenant}/${t.user}  step ${v.currentStep}/${v.steps}`,
    `request: ${v.request}`,
    ...(v.goal ? [`goal:    ${v.goal}`] : []),
    ...(t.leaseOwner ? [`lease:   ${t.leaseOwner} until ${t.leaseUntil}`] : []),
  ];
  for (const s of steps) {
    const what = s.outputSummary ?? s.error ?? s.goal;
    lines.push(`  #${String(s.stepNo).padEnd(3)} ${s.status.padEnd(8)} ${(s.tool ?? '').padEnd(22)} ${what}`);
  }
  if (v.answer) lines.push(`answer: ${v.answer}`);
  return lines.join('\n');
}

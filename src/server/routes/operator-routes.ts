import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { hashCanonical, type Identity } from '../../core/index.js';
import { type EgressGate, gatedSteps, redactFields } from '../../gates/index.js';
import type { ToolGateway } from '../../gateway/index.js';
import { readTaskState } from '../../lines/index.js';
import { checkProfile, explainLines, type PipelineProfile, PROFILES } from '../../pipeline/index.js';
import type { Platform } from '../../platform/index.js';
import { type AuditRecord, parseStoredJson, type StepRecord, type TaskRecord } from '../../store/index.js';
import { NotFoundError, parseInput } from '../errors.js';
import { auditQuery, idParam } from '../schemas.js';
import { AuditViews, auditCsv } from './audit-views.js';
import { overviewOf } from './overview.js';

/** What the operator routes need from the server that registers them. */
export interface OperatorRouteDeps {
  readonly platform: Platform;
  /** Whether a caller reads the whole tenant's records (reviewers, auditors), not only their own. */
  readonly readsTenant: (id: Identity) => boolean;
  /** The egress gate for what this request's caller is sent. */
  readonly gateFor: (req: FastifyRequest, sessionId: string) => EgressGate;
  readonly now?: () => Date;
}

const overviewQuery = z.strictObject({
  hours: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 31)
    .default(24),
  buckets: z.coerce.number().int().min(4).max(96).default(24),
});

const exportQuery = auditQuery.extend({
  format: z.enum(['csv', 'json']).default('csv'),
  limit: z.coerce.number().int().min(1).max(10_000).default(1000),
});

const rawParams = z.strictObject({
  id: z.string().min(1).max(100),
  stepNo: z.coerce.number().int().min(1).max(1000),
});

/** Task statuses after which a task changes no more. */
const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'denied']);
/** How often the live timeline looks at the store, and for how long at most. */
const TIMELINE_POLL_MS = 300;
const TIMELINE_MAX_MS = 10 * 60_000;

const LINES = ['deep', 'quick', 'readonly'] as const;
type Line = (typeof LINES)[number];

/**
 * The routes the console's operator views read (docs/operations.md, "Console"): the overview,
 * one audit record, its explanation, the filtered audit as a file, a task's live timeline and a
 * step's raw output. Each is scoped to the caller's tenant; an employee sees only their own
 * records and tasks; every text leaves through the caller's egress gate.
 */
export function registerOperatorRoutes(v1: FastifyInstance, deps: OperatorRouteDeps): void {
  const { platform, readsTenant, gateFor } = deps;
  const now = deps.now ?? (() => new Date());
  const who = (req: FastifyRequest) => req.identity as Identity;
  const views = new AuditViews(platform.runtime.registry);
  const mayRead = (id: Identity, owner: string) => readsTenant(id) || owner === id.user;

  const recordFor = async (req: FastifyRequest): Promise<AuditRecord> => {
    const { id: recordId } = parseInput(idParam, req.params, 'path');
    const id = who(req);
    const rec = await platform.store.forTenant(id.tenant).audit.get(recordId);
    if (!rec || !mayRead(id, rec.user)) throw new NotFoundError(`audit record ${recordId}`);
    return rec;
  };

  v1.get('/v1/overview', async (req) => {
    const q = parseInput(overviewQuery, req.query, 'query');
    const id = who(req);
    const until = now();
    const since = new Date(until.getTime() - q.hours * 3600_000);
    const tenant = platform.store.forTenant(id.tenant);
    const records = await tenant.audit.query({
      ...(readsTenant(id) ? {} : { user: id.user }),
      since: since.toISOString(),
      limit: 10_000,
    });
    const tasks = await tenant.tasks.listTasks({ limit: 1000 });
    const taskStates: Record<string, number> = {};
    for (const t of tasks) if (mayRead(id, t.user)) taskStates[t.status] = (taskStates[t.status] ?? 0) + 1;
    const reviews = readsTenant(id) ? await tenant.reviews.pendingSummary() : undefined;
    return {
      ...overviewOf(records, { since, until, buckets: q.buckets }),
      queue: {
        running: platform.deepQueue.running,
        waiting: platform.deepQueue.waiting,
        tasks: taskStates,
      },
      // The caller's tenant's breakers only (tenant and tool-wide state), never another tenant's.
      breakers: platform.breakers.snapshot(id.tenant).map((b) => ({ tool: b.tool, state: b.state })),
      ...(reviews
        ? {
            reviews: {
              pending: reviews.pending,
              oldestAgeS: reviews.oldestCreatedAt
                ? Math.max(0, Math.round((until.getTime() - Date.parse(reviews.oldestCreatedAt)) / 1000))
                : 0,
            },
          }
        : {}),
    };
  });

  v1.get('/v1/audit/export', async (req, reply) => {
    const q = parseInput(exportQuery, req.query, 'query');
    const id = who(req);
    const records = await platform.store
      .forTenant(id.tenant)
      .audit.query(auditFilter(q, id, readsTenant(id)));
    const gate = gateFor(req, 'audit');
    const shown = records.map((r) => views.view(gate, r, id));
    const stamp = now().toISOString().replace(/[:.]/g, '-');
    reply.header('content-disposition', `attachment; filename="twinline-audit-${stamp}.${q.format}"`);
    if (q.format === 'json') {
      reply.header('content-type', 'application/json; charset=utf-8');
      return { records: shown };
    }
    reply.header('content-type', 'text/csv; charset=utf-8');
    return auditCsv(shown);
  });

  v1.get('/v1/audit/:id', async (req) => {
    const rec = await recordFor(req);
    return { record: views.view(gateFor(req, 'audit'), rec, who(req)) };
  });

  const dryRuns = new Map<Line, ToolGateway>();
  const dryRun = (line: Line): { gateway: ToolGateway; profile: PipelineProfile } => {
    const profile = checkProfile(PROFILES[`serve.${line}`]);
    let gateway = dryRuns.get(line);
    if (!gateway) {
      const { config, registry, pipeline } = platform.runtime;
      const allow =
        line === 'quick' ? config.lines.quick : line === 'readonly' ? ['doc_search'] : config.lines.deep;
      gateway = pipeline.gateway(profile, { tools: registry, allow: new Set(allow) }, { dryRun: true });
      dryRuns.set(line, gateway);
    }
    return { gateway, profile };
  };

  /**
   * What the call had declared when it was decided: its deep task's plan, and for the run of an
   * approved review the reviewed tool itself (as the gateway declares it on replay).
   */
  const declaredFor = async (rec: AuditRecord): Promise<string[]> => {
    const declared = new Set<string>();
    if (rec.taskId) {
      const task = await platform.store.forTenant(rec.tenant).tasks.getTask(rec.taskId);
      for (const c of (task && readTaskState(task))?.plan?.capabilities ?? []) declared.add(c);
    }
    if (rec.reviewId && rec.status !== 'review') declared.add(rec.tool);
    return [...declared];
  };

  v1.get('/v1/audit/:id/explain', async (req) => {
    const rec = await recordFor(req);
    const viewer = who(req);
    const gate = gateFor(req, 'audit');
    const shown = views.view(gate, rec, viewer);
    const line = (LINES as readonly string[]).includes(rec.domain) ? (rec.domain as Line) : undefined;
    const lines = [
      `${rec.tenant}/${rec.user} -> ${rec.tool}: ${rec.status.toUpperCase()} (recorded ${rec.time})`,
      ...(rec.decidedBy
        ? [`decided by: ${rec.decidedBy.stage} (${rec.decidedBy.ruleId})`, `reason: ${rec.decidedBy.reason}`]
        : []),
      'stages:',
      ...rec.decisionPath.map(
        (s) => `  ${s.stage.padEnd(12)} ${s.verdict.padEnd(7)} ${s.ruleId.padEnd(24)} ${s.reason}`,
      ),
    ];
    // The call is decided again only from exactly the arguments it had: logged arguments that
    // were redacted are not that call, so then only the record is shown.
    const exact = rec.args !== undefined && safeHash(rec.args) === rec.argsHash;
    let again: { verdict: string; decision: unknown; path: unknown } | undefined;
    let note: string | undefined;
    if (line) {
      const { gateway, profile } = dryRun(line);
      const requester = platform.runtime.identities.find(rec.user, rec.tenant);
      if (!exact) note = 'the logged arguments were redacted, so the call is not decided again';
      else if (!requester)
        note = `${rec.user} is no longer in the directory, so the call is not decided again`;
      else {
        const check = await gateway.check(
          { id: `explain-${rec.id}`, name: rec.tool, arguments: rec.args },
          {
            identity: requester,
            sessionId: `explain-${rec.id}`,
            domain: line,
            ...(rec.taskId ? { taskId: rec.taskId } : {}),
            declaredCapabilities: await declaredFor(rec),
          },
        );
        again = { verdict: check.verdict, decision: check.decision, path: check.path };
        lines.push(
          `decided again now: ${check.verdict.toUpperCase()} by ${check.decision.stage} (${check.decision.ruleId})`,
        );
      }
      lines.push(...explainLines(profile, platform.runtime.pipeline.explain(profile)));
    } else {
      note = `records of ${rec.domain} are not decided by a gateway profile`;
    }
    if (note) lines.push(`note: ${note}`);
    return {
      record: shown,
      argsExact: exact,
      ...(line ? { profile: checkProfile(PROFILES[`serve.${line}`]).name } : {}),
      ...(again ? { now: gate.value(again) } : {}),
      ...(note ? { note } : {}),
      text: gate.value(lines),
    };
  });

  const taskFor = async (req: FastifyRequest, taskId: string): Promise<TaskRecord> => {
    const id = who(req);
    const task = await platform.store.forTenant(id.tenant).tasks.getTask(taskId);
    if (!task || !mayRead(id, task.user)) throw new NotFoundError(`task ${taskId}`);
    return task;
  };

  v1.get('/v1/tasks/:id/steps/:stepNo/raw', async (req) => {
    const p = parseInput(rawParams, req.params, 'path');
    const task = await taskFor(req, p.id);
    const tasks = platform.store.forTenant(task.tenant).tasks;
    const step = (await tasks.getSteps(task.id)).find((s) => s.stepNo === p.stepNo);
    if (!step?.rawOutputRef) throw new NotFoundError(`raw output of step ${p.stepNo}`);
    const raw = await tasks.getRawOutput(step.rawOutputRef);
    if (raw === undefined) throw new NotFoundError(`raw output of step ${p.stepNo}`);
    const tool = step.tool ? platform.runtime.registry.get(step.tool) : undefined;
    // As the result gate would show it to this viewer: field tags for their level, then egress.
    const viewer = who(req);
    const stored = parseStoredJson(raw, {
      kind: 'raw output',
      row: step.rawOutputRef,
      field: 'raw_outputs.content',
    });
    const output = redactFields(stored, tool?.fieldTags ?? {}, viewer.dataLevel).output;
    return {
      taskId: task.id,
      stepNo: step.stepNo,
      tool: step.tool,
      viewerLevel: viewer.dataLevel,
      output: gateFor(req, task.id).value(output),
    };
  });

  v1.get('/v1/tasks/:id/events', async (req, reply) => {
    const { id: taskId } = parseInput(idParam, req.params, 'path');
    const first = await taskFor(req, taskId);
    return timeline(req, reply, first);
  });

  /**
   * A task's live step timeline as server-sent events: `task` when its status changes, `step` when
   * a step does, `final` (the gated answer) and the end of the stream when the task is finished.
   * Read from the store, so it follows a task whichever process runs it.
   */
  const timeline = async (req: FastifyRequest, reply: FastifyReply, first: TaskRecord) => {
    const tasks = platform.store.forTenant(first.tenant).tasks;
    const gate = gateFor(req, first.id);
    let open = true;
    reply.raw.on('close', () => {
      open = false;
    });
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const send = (event: string, data: unknown) => {
      if (open && !reply.raw.writableEnded)
        reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    const seen = new Map<number, string>();
    let status = '';
    const started = Date.now();
    try {
      while (open && Date.now() - started < TIMELINE_MAX_MS) {
        const task = await tasks.getTask(first.id);
        if (!task) break;
        if (task.status !== status) {
          status = task.status;
          send('task', {
            id: task.id,
            status: task.status,
            currentStep: task.currentStep,
            updatedAt: task.updatedAt,
          });
        }
        const steps = await tasks.getSteps(task.id);
        const changed: StepRecord[] = steps.filter((s) => seen.get(s.stepNo) !== stepKey(s));
        for (const s of changed) seen.set(s.stepNo, stepKey(s));
        if (changed.length > 0) for (const s of gatedSteps(gate, changed)) send('step', s);
        if (TERMINAL.has(task.status)) {
          const final = readTaskState(task)?.final;
          send('final', {
            status: task.status,
            ...(final !== undefined ? { result: gate.text(final) } : {}),
          });
          break;
        }
        await new Promise((r) => setTimeout(r, TIMELINE_POLL_MS));
      }
    } catch {
      send('error', { error: 'internal', message: 'the timeline stopped; reload to follow the task again' });
    } finally {
      reply.raw.end();
    }
  };
}

function stepKey(s: StepRecord): string {
  return `${s.status}\0${s.outputSummary ?? ''}\0${s.error ?? ''}\0${s.finishedAt ?? ''}`;
}

function safeHash(v: unknown): string {
  try {
    return hashCanonical(v ?? null);
  } catch {
    return 'unhashable';
  }
}

/** The audit filter of a query: an employee's is always narrowed to their own records. */
export function auditFilter(
  q: z.infer<typeof auditQuery>,
  id: Identity,
  reviewer: boolean,
): Parameters<Platform['store']['audit']['query']>[0] {
  const user = reviewer ? q.user : id.user;
  return {
    ...(user ? { user } : {}),
    ...(q.tool ? { tool: q.tool } : {}),
    ...(q.status ? { status: q.status } : {}),
    ...(q.stage ? { stage: q.stage } : {}),
    ...(q.rule ? { rule: q.rule } : {}),
    ...(q.domain ? { domain: q.domain } : {}),
    ...(q.reviewId ? { reviewId: q.reviewId } : {}),
    ...(q.taskId ? { taskId: q.taskId } : {}),
    ...(q.since ? { since: q.since } : {}),
    ...(q.until ? { until: q.until } : {}),
    limit: q.limit,
  };
}

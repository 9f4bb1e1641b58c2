/**
 * Deep-line context size (docs/lines.md, "Context bus: summaries only"): prompt tokens of a 30-step scripted task when the
 * planner gets structured summaries (only the relevant ones, capped) versus full history.
 *
 * The task runs for real: DeepLine, the office tools through the gateway, a SQLite store, a
 * scripted planner whose every prompt is recorded. Two baselines use the raw outputs the store kept:
 *  - `sameTurns`: the same two model turns (plan, compose), the compose prompt holding every raw
 *    output instead of the selected summaries;
 *  - `naiveLoop`: an agent loop that calls the model once per step and keeps every previous call
 *    and raw output in its messages (31 turns), as a loop without summaries would.
 * Completion is checked: the task must end `completed` with all 30 steps done.
 *
 * Token estimator (no tokenizer download): every CJK character (incl. full-width punctuation) is
 * one token; other text is ceil(chars / 4). Tool declarations count as their JSON.
 * Prints one JSON object on the last line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ModelProvider, type ModelTurnRequest, ScriptedProvider } from '../src/agent/index.js';
import { loadOfficeDomain } from '../src/config/index.js';
import { composerMessages, DeepLine, ModelPlanner, parsePlan } from '../src/lines/index.js';
import { createRuntime } from '../src/runtime/index.js';

const CJK = /[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/gu;

/** Estimated tokens of a text: CJK characters 1 each, the rest 4 characters per token. */
export function estimateTokens(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

function promptTokens(req: { system: string; messages: readonly unknown[]; tools: readonly unknown[] }) {
  const body = req.messages.map((m) => {
    const msg = m as { content?: string; toolCalls?: unknown };
    return (msg.content ?? '') + (msg.toolCalls ? JSON.stringify(msg.toolCalls) : '');
  });
  return (
    estimateTokens(req.system) +
    body.reduce((n, t) => n + estimateTokens(t), 0) +
    (req.tools.length ? estimateTokens(JSON.stringify(req.tools)) : 0)
  );
}

const STEPS = 30;
const REQUEST = '分析华东区今年的销售和续约情况，对比各月业绩，找出异常并为需要跟进的客户建工单';

/** A 30-step plan: monthly east sales, customers, calendar, attendance checks and follow-up tickets. */
function scriptedPlan() {
  const steps = [];
  for (let i = 1; i <= STEPS; i++) {
    const month = String(((i - 1) % 6) + 7).padStart(2, '0');
    const meetingMonth = i % 2 === 0 ? '11' : '12';
    if (i % 5 === 0) {
      steps.push({
        goal: `File a follow-up ticket for east-region renewals, batch ${i / 5}`,
        tool: 'ticket_create',
        args: {
          title: `East renewal follow-up ${i / 5}`,
          body: `Check renewals, batch ${i / 5}`,
          priority: 'normal',
        },
      });
    } else if (i % 5 === 1) {
      steps.push({
        goal: `East-region sales in 2026-${month}`,
        tool: 'sales_query',
        args: { from: `2026-${month}-01`, to: `2026-${month}-28`, region: 'east' },
      });
    } else if (i % 5 === 2) {
      steps.push({
        goal: `East-region customers for renewal, pass ${i}`,
        tool: 'customer_lookup',
        args: i % 2 === 0 ? { owner: 'bob' } : {},
      });
    } else if (i % 5 === 3) {
      steps.push({
        goal: `Meetings with customers in 2026-${meetingMonth}`,
        tool: 'calendar_list',
        args: { from: `2026-${meetingMonth}-01`, to: `2026-${meetingMonth}-28` },
      });
    } else {
      steps.push({
        goal: `East-region sales by rep bob in 2026-${month}`,
        tool: 'sales_query',
        args: { from: `2026-${month}-01`, to: `2026-${month}-28`, region: 'east', rep: 'bob' },
      });
    }
  }
  return {
    goal: 'Analyse east-region sales and renewals, compare months, file follow-ups',
    capabilities: [],
    steps,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'twinline-bench-context-'));
const base = loadOfficeDomain();
const rt = await createRuntime({
  ...base,
  tools: { ...base.tools, options: { ...base.tools.options, dataDir: join(dir, 'office') } },
  store: { sqliteFile: join(dir, 'twinline.sqlite') },
});
try {
  const plan = scriptedPlan();
  const recorded: ModelTurnRequest[] = [];
  const inner = new ScriptedProvider([
    { text: JSON.stringify(plan) },
    { text: 'East-region analysis done.' },
  ]);
  const provider: ModelProvider = {
    kind: inner.kind,
    model: inner.model,
    turn(req) {
      recorded.push(req);
      return inner.turn(req);
    },
  };
  const deep = new DeepLine({
    tasksFor: (t) => rt.store!.forTenant(t).tasks,
    gateway: rt.gateway,
    tools: rt.registry,
    allowlist: new Set(['sales_query', 'customer_lookup', 'calendar_list', 'ticket_create']),
    planner: new ModelPlanner(provider),
    resolveIdentity: (tenant, user) => rt.identities.resolve(user, tenant),
  });
  const bob = rt.identities.resolve('bob', 'acme');
  const taskId = await deep.accept(bob, REQUEST, 'bench');
  const result = await deep.run('acme', taskId);
  const tasks = rt.store!.forTenant('acme').tasks;
  const steps = await tasks.getSteps(taskId);
  const done = steps.filter((s) => s.status === 'done').length;
  const raw = await Promise.all(steps.map((s) => (s.rawOutputRef ? tasks.getRawOutput(s.rawOutputRef) : '')));

  const [planTurn, composeTurn] = recorded;
  if (!planTurn || !composeTurn) throw new Error('the planner was not called twice');
  const summaryTask = promptTokens(planTurn) + promptTokens(composeTurn);

  // Same turns, full history: the compose prompt gets every step with its raw output.
  const parsed = parsePlan(JSON.stringify(plan));
  const fullLines = steps.map((s, i) => `#${s.stepNo} ${s.tool} ${s.goal} → ${raw[i] ?? ''}`);
  const fullCompose = composerMessages(REQUEST, parsed, fullLines);
  const fullComposeTokens = promptTokens({ ...fullCompose, tools: [] });
  // Summaries of every step (no relevance selection), for the selection's own share.
  const allSummaries = composerMessages(
    REQUEST,
    parsed,
    steps.map((s) => s.outputSummary ?? ''),
  );
  const allSummariesTokens = promptTokens({ ...allSummaries, tools: [] });

  // Naive loop: turn k re-sends system, request, tools and all k-1 calls with their raw outputs.
  let naive = 0;
  const history: { role: string; content: string; toolCalls?: unknown }[] = [
    { role: 'user', content: REQUEST },
  ];
  for (let k = 0; k <= STEPS; k++) {
    naive += promptTokens({ system: planTurn.system, messages: history, tools: planTurn.tools });
    const s = steps[k];
    if (!s) break;
    history.push({ role: 'assistant', content: '', toolCalls: [{ name: s.tool, arguments: s.params }] });
    history.push({ role: 'tool', content: raw[k] ?? '' });
  }

  const pct = (a: number, b: number) => Math.round((1 - a / b) * 1000) / 10;
  const out = {
    estimator: 'CJK char = 1 token; other text ceil(chars/4)',
    steps: STEPS,
    completed: result?.outcome === 'completed' && done === STEPS,
    outcome: result?.outcome,
    stepsDone: done,
    rawOutputTokensStored: raw.reduce((n, r) => n + estimateTokens(r ?? ''), 0),
    composePrompt: {
      summaries: promptTokens(composeTurn),
      allSummariesNoSelection: allSummariesTokens,
      fullHistory: fullComposeTokens,
      reductionPct: pct(promptTokens(composeTurn), fullComposeTokens),
    },
    sameTurns: {
      summaries: summaryTask,
      fullHistory: promptTokens(planTurn) + fullComposeTokens,
      reductionPct: pct(summaryTask, promptTokens(planTurn) + fullComposeTokens),
    },
    naiveLoop: {
      summaries: summaryTask,
      fullHistory: naive,
      turns: STEPS + 1,
      reductionPct: pct(summaryTask, naive),
    },
    seedReportedReductionPct: 45,
  };
  if (process.env.BENCH_VERBOSE) console.error(composeTurn.messages[0], raw.slice(0, 3));
  console.log(JSON.stringify(out));
} finally {
  await rt.close();
  rmSync(dir, { recursive: true, force: true });
}

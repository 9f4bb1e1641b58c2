// Fixed API answers for the console's screenshots: the shapes the server sends (the flows in
// console.e2e.test.ts check them against a real server), with fixed data and a fixed clock, so a
// screenshot changes only when the console's look does.

const NOW = '2026-11-24T10:00:00.000Z';
const at = (minutesAgo: number) => new Date(Date.parse(NOW) - minutesAgo * 60_000).toISOString();

export const WHOAMI = {
  tenant: 'acme',
  user: 'rita',
  roles: ['reviewer'],
  dataLevel: 'L3',
  reviewer: true,
  auditor: false,
};

const hours = Array.from({ length: 24 }, (_, i) => i);
export const OVERVIEW = {
  since: at(24 * 60),
  until: NOW,
  records: 1342,
  buckets: hours.map((i) => ({
    start: new Date(Date.parse(NOW) - (24 - i) * 3600_000).toISOString(),
    counts: {
      allowed: 20 + ((i * 7) % 30) + (i > 8 && i < 18 ? 25 : 0),
      denied: 2 + ((i * 5) % 7),
      review: (i * 3) % 4,
      error: i % 9 === 0 ? 2 : 0,
    },
  })),
  topDenyingRules: [
    { stage: 'policy', rule: 'policy.default-deny', count: 41 },
    { stage: 'parameters', rule: 'parameters.date-range', count: 23 },
    { stage: 'intent', rule: 'intent.no-declaration', count: 12 },
    { stage: 'access', rule: 'tool.unavailable', count: 7 },
    { stage: 'resilience', rule: 'resilience.rate-limited', count: 4 },
  ],
  latencyByLine: [
    { line: 'deep', count: 212, p50Ms: 3.4, p95Ms: 41.8 },
    { line: 'input', count: 9, p50Ms: 0, p95Ms: 0 },
    { line: 'quick', count: 1121, p50Ms: 0.42, p95Ms: 1.9 },
  ],
  queue: { running: 2, waiting: 3, tasks: { awaiting_review: 1, completed: 14, queued: 3, running: 2 } },
  breakers: [
    { tool: 'billing_report_query', state: 'closed' },
    { tool: 'calendar_list', state: 'closed' },
    { tool: 'page_fetch', state: 'open' },
    { tool: 'doc_search', state: 'half_open' },
  ],
  reviews: { pending: 1, oldestAgeS: 1260 },
};

const path = (...d: [string, string, string, string][]) =>
  d.map(([stage, verdict, ruleId, reason]) => ({ stage, verdict, ruleId, reason }));

export const REVIEWS = {
  now: NOW,
  reviews: [
    {
      id: '0f9a3c1e-77aa-4c1e-9d5a-2b6c1f0e9a01',
      tenant: 'acme',
      user: 'carol',
      agent: 'main',
      domain: 'deep',
      tool: 'billing_report_query',
      args: { period: '2026-11', project: 'atlas' },
      reason: 'billing_report_query is a high-risk tool and runs only after a reviewer approves it.',
      decisionPath: path(
        ['access', 'allow', 'access.allowed', 'Tool billing_report_query is available to main.'],
        ['policy', 'allow', 'grant.finance_analyst', 'role finance_analyst is granted finance'],
        ['review', 'review', 'review.required', 'runs only after a reviewer approves it'],
      ),
      status: 'pending',
      createdAt: at(21),
      expiresAt: new Date(Date.parse(at(21)) + 24 * 3600_000).toISOString(),
      requester: { roles: ['finance_analyst'], dataLevel: 'L3' },
      taskId: '5d1c2b7a-0c43-4a5e-8f1e-9a7b6c5d4e3f',
      request: 'Analyse the billing of project atlas for November and write a report',
    },
    {
      id: '7b2e4d60-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
      tenant: 'acme',
      user: 'frank',
      agent: 'main',
      domain: 'deep',
      tool: 'billing_report_query',
      args: { period: '2026-10', project: 'atlas' },
      reason: 'billing_report_query is a high-risk tool and runs only after a reviewer approves it.',
      decisionPath: path(['review', 'review', 'review.required', 'runs only after a reviewer approves it']),
      status: 'executed',
      createdAt: at(180),
      expiresAt: new Date(Date.parse(at(180)) + 24 * 3600_000).toISOString(),
      decidedBy: 'auto-reviewer:billing.own-single-project',
      decidedByRule: true,
      decidedAt: at(179),
      requester: { roles: ['project_owner'], dataLevel: 'L3' },
      taskId: '9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a',
      request: 'October billing of atlas, please',
      resultSummary: '{"rows":[…3 items],"total":184200}',
    },
    {
      id: 'c4d5e6f7-0819-4a2b-9c3d-4e5f60718293',
      tenant: 'acme',
      user: 'erin',
      agent: 'main',
      domain: 'deep',
      tool: 'salary_analysis',
      args: { departments: ['all'] },
      reason: 'salary_analysis is a critical-risk tool and runs only after a reviewer approves it.',
      decisionPath: path(['review', 'review', 'review.required', 'runs only after a reviewer approves it']),
      status: 'denied',
      createdAt: at(300),
      expiresAt: new Date(Date.parse(at(300)) + 24 * 3600_000).toISOString(),
      decidedBy: 'rita',
      decidedByRule: false,
      decidedAt: at(290),
      decisionNote: 'Company-wide salaries need HR leadership sign-off',
      requester: { roles: ['hr_analyst'], dataLevel: 'L3' },
      request: 'Compare salaries across all departments',
    },
  ],
};

const record = (
  minutesAgo: number,
  user: string,
  tool: string,
  status: string,
  decidedBy: [string, string, string],
  summary: string,
  durationMs: number,
  extra: Record<string, unknown> = {},
) => ({
  id: `0193a1b2-c3d4-7e5f-8a9b-${String(minutesAgo).padStart(12, '0')}`,
  time: at(minutesAgo),
  tenant: 'acme',
  user,
  sessionId: `s-${user}`,
  agent: 'main',
  domain: tool === 'calendar_list' ? 'quick' : 'deep',
  tool,
  callId: `call-${minutesAgo}`,
  argsHash: 'sha256:4f1c…',
  status,
  decisionPath: path(
    ['access', 'allow', 'access.allowed', `Tool ${tool} is available to main.`],
    ['schema', 'allow', 'schema.valid', 'arguments valid'],
    [decidedBy[0], status === 'executed' ? 'allow' : 'deny', decidedBy[1], decidedBy[2]],
  ),
  decidedBy: {
    stage: decidedBy[0],
    ruleId: decidedBy[1],
    reason: decidedBy[2],
    verdict: status === 'executed' ? 'allow' : 'deny',
  },
  resultSummary: summary,
  durationMs,
  ...extra,
});

export const AUDIT = {
  records: [
    record(
      2,
      'alice',
      'calendar_list',
      'executed',
      ['policy', 'grant.employee', 'role employee is granted calendar'],
      '{"events":[…3 items]}',
      0.4173,
    ),
    record(
      5,
      'bob',
      'customer_lookup',
      'executed',
      ['policy', 'grant.sales_manager', 'role sales_manager is granted crm'],
      '{"customers":[…2 items]}',
      1.93851,
      {
        args: { region: 'east', name: 'Zh*** Wei' },
        argsLevel: 'L3',
      },
    ),
    record(
      9,
      'mallory',
      'record_delete',
      'denied',
      ['policy', 'policy.default-deny', 'no policy rule grants record_delete to employee'],
      'policy/policy.default-deny',
      0.19739400000025853,
    ),
    record(
      14,
      'carol',
      'billing_report_query',
      'executed',
      ['review', 'review.approved', 'approved by rita'],
      '{"rows":[…4 items],"total":312450}',
      18.20461,
      {
        args: { period: '2026-11', project: 'atlas' },
        argsLevel: 'L3',
        reviewId: '0f9a3c1e-77aa-4c1e-9d5a-2b6c1f0e9a01',
        taskId: '5d1c2b7a-0c43-4a5e-8f1e-9a7b6c5d4e3f',
      },
    ),
    record(
      30,
      'alice',
      'sales_query',
      'denied',
      ['parameters', 'parameters.date-range', 'from 2024-01-01 is more than a quarter back'],
      'parameters/parameters.date-range',
      0.88,
    ),
  ],
};

export const EXPLAIN = {
  text: [
    'acme/carol -> billing_report_query: EXECUTED (recorded 2026-11-24T09:46:00.000Z)',
    'decided by: review (review.approved)',
    'reason: approved by rita',
    'stages:',
    '  review       allow   review.approved          approved by rita',
    '  access       allow   access.allowed           Tool billing_report_query is available to main.',
    '  policy       allow   grant.finance_analyst    role finance_analyst is granted finance',
    'decided again now: REVIEW by review (review.required)',
    'profile: check(serve.deep) (twinline check for twinline serve, createPlatform, eval: the deep line)',
    'slots:',
    '  access      on   access: the calling agent may use the tool',
    '  review      on   review: tools that require review wait for a person',
  ],
};

export const TASKS = {
  tasks: [
    {
      id: '5d1c2b7a-0c43-4a5e-8f1e-9a7b6c5d4e3f',
      line: 'deep',
      status: 'completed',
      request: 'Analyse the billing of project atlas for November and write a report',
      user: 'carol',
      currentStep: 3,
      createdAt: at(22),
      updatedAt: at(13),
    },
    {
      id: '9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a',
      line: 'deep',
      status: 'awaiting_review',
      request: 'October billing of atlas, please',
      user: 'frank',
      currentStep: 1,
      createdAt: at(181),
      updatedAt: at(180),
    },
  ],
};

export const TASK = {
  task: TASKS.tasks[0],
  plan: { goal: 'Billing report of project atlas', capabilities: ['billing_report_query'] },
  steps: [
    {
      stepNo: 1,
      status: 'done',
      goal: 'Find the billing policy',
      tool: 'doc_search',
      paramsValidated: true,
      outputSummary: '#1 doc_search [done] Find the billing policy → 3 documents',
      rawOutputRef: 'r1',
    },
    {
      stepNo: 2,
      status: 'done',
      goal: 'Atlas billing for November',
      tool: 'billing_report_query',
      paramsValidated: true,
      outputSummary: '#2 billing_report_query [done] → 4 rows, total 312450',
    },
    {
      stepNo: 3,
      status: 'done',
      goal: 'Billing policy again',
      tool: 'doc_search',
      paramsValidated: true,
      outputSummary: '#3 doc_search [done] → 2 documents',
      rawOutputRef: 'r3',
    },
  ],
  result: 'Atlas billed 312,450 in November over four invoices; all within the billing policy.',
};

/** The task's live timeline: it has finished, so one status, its steps, and the final answer. */
export const TASK_EVENTS = [
  ['task', { id: TASK.task!.id, status: 'completed', currentStep: 3, updatedAt: at(13) }],
  ...TASK.steps.map((s) => ['step', s] as const),
  ['final', { status: 'completed', result: TASK.result }],
]
  .map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)
  .join('');

/** The answer for one API path the console asks for (query string ignored), or undefined. */
export function fixtureFor(pathname: string): { body: string; type: string } | undefined {
  const json = (v: unknown) => ({ body: JSON.stringify(v), type: 'application/json' });
  if (pathname === '/v1/whoami') return json(WHOAMI);
  if (pathname === '/v1/overview') return json(OVERVIEW);
  if (pathname === '/v1/reviews') return json(REVIEWS);
  if (pathname === '/v1/audit') return json(AUDIT);
  if (/^\/v1\/audit\/[^/]+\/explain$/.test(pathname)) return json(EXPLAIN);
  if (pathname === '/v1/tasks') return json(TASKS);
  if (/^\/v1\/tasks\/[^/]+\/events$/.test(pathname)) return { body: TASK_EVENTS, type: 'text/event-stream' };
  if (/^\/v1\/tasks\/[^/]+$/.test(pathname)) return json(TASK);
  if (pathname === '/v1/routing') return json({ decisions: [] });
  return undefined;
}

/**
 * Every route of the HTTP API and what it sends (docs/gates.md, "Gated doors"): `gated` — model, tool or user text, through the egress gate;
 * `none` — no such text (health, identity, static files, counters). The route test derives the
 * routes from the server and fails on any route missing here.
 */
export const ROUTE_EGRESS: Readonly<
  Record<string, { readonly carries: 'gated' | 'none'; readonly what: string }>
> = {
  'GET /v1/health': { carries: 'none', what: 'status, version, store dialect' },
  'GET /openapi.json': { carries: 'none', what: 'the static API description' },
  'GET /metrics': { carries: 'none', what: 'counters labelled by route, target and outcome' },
  'GET /': { carries: 'none', what: 'a redirect' },
  'GET /console': { carries: 'none', what: 'a redirect' },
  'GET /console/*': { carries: 'none', what: 'the console’s static files' },
  'GET /v1/whoami': { carries: 'none', what: 'the caller’s own identity' },
  'POST /v1/requests': {
    carries: 'gated',
    what: 'the answer; with stream: every SSE event (text deltas held to a safe boundary), result, error',
  },
  'POST /v1/route': { carries: 'none', what: 'the router’s target, scores and rule for the caller’s query' },
  'GET /v1/routing': { carries: 'gated', what: 'recent routed queries (user text)' },
  'GET /v1/tasks': { carries: 'gated', what: 'task requests (user text)' },
  'GET /v1/tasks/:id': {
    carries: 'gated',
    what: 'request, plan goal, step goals/params/summaries/errors, final answer',
  },
  'POST /v1/tasks/:id/cancel': { carries: 'none', what: 'the task id and whether it was cancelled' },
  'GET /v1/reviews': { carries: 'gated', what: 'call arguments, reasons, decision paths, result summaries' },
  'POST /v1/reviews/:id/approve': {
    carries: 'gated',
    what: 'the executed call’s content, an input review’s answer',
  },
  'POST /v1/reviews/:id/deny': { carries: 'gated', what: 'the review’s status (an input review’s too)' },
  'GET /v1/audit': { carries: 'gated', what: 'result summaries and decision paths' },
  'GET /v1/breakers': { carries: 'none', what: 'tool names and breaker states' },
  'GET /v1/overview': {
    carries: 'none',
    what: 'counts by outcome and time, denying rule ids, latency per line, queue depth, breaker states',
  },
  'GET /v1/audit/export': {
    carries: 'gated',
    what: 'audit records as CSV or JSON: arguments, reasons, summaries',
  },
  'GET /v1/audit/:id': { carries: 'gated', what: 'one audit record: arguments, reasons, summary' },
  'GET /v1/audit/:id/explain': {
    carries: 'gated',
    what: 'the record’s decision path and reasons, decided again, and its profile’s slots',
  },
  'GET /v1/tasks/:id/events': {
    carries: 'gated',
    what: 'SSE: task status, step goals/params/summaries, final answer',
  },
  'GET /v1/tasks/:id/steps/:stepNo/raw': {
    carries: 'gated',
    what: 'a step’s raw tool output, redacted by its field tags for the viewer',
  },
};

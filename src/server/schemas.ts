import { z } from 'zod';

/** `POST /v1/requests` body. Identity never comes from here — only from the credential. */
export const requestBody = z.strictObject({
  query: z.string().trim().min(1, 'query must not be empty').max(4000),
  sessionId: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,80}$/)
    .optional(),
  stream: z.boolean().optional(),
  /** Wait for a deep task to finish instead of answering 202 with its queue position. */
  wait: z.boolean().optional(),
});

export const routeBody = z.strictObject({ query: z.string().trim().min(1).max(4000) });

export const reviewDecisionBody = z.strictObject({ note: z.string().max(500).optional() }).default({});

/** A denial says why: the requester and the audit read the note. */
export const reviewDenyBody = z.strictObject({
  note: z.string().trim().min(1, 'a denial needs a note saying why').max(500),
});

export const listQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(1000).default(100) });

export const reviewsQuery = z.strictObject({
  status: z.enum(['pending', 'approved', 'denied', 'executing', 'executed', 'failed', 'expired']).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

const filterName = z.string().min(1).max(128);

export const auditQuery = z.strictObject({
  user: z.string().max(64).optional(),
  tool: z.string().max(64).optional(),
  status: z
    .enum(['executed', 'denied', 'ask', 'review', 'failed', 'timeout', 'cancelled', 'rate_limited'])
    .optional(),
  /** The deciding stage (for executed calls: the grant's). */
  stage: filterName.optional(),
  /** The deciding rule id (for executed calls: the grant's). */
  rule: filterName.optional(),
  domain: filterName.optional(),
  reviewId: filterName.optional(),
  taskId: filterName.optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const idParam = z.strictObject({ id: z.string().min(1).max(100) });

const stageDecision = z.object({
  verdict: z.enum(['allow', 'deny', 'ask', 'review']),
  stage: z.string(),
  ruleId: z.string(),
  reason: z.string(),
});

export const requestResult = z.object({
  requestId: z.string(),
  sessionId: z.string(),
  route: z.object({
    target: z.enum(['deep', 'quick', 'readonly_fallback']),
    scores: z.object({ deep: z.number(), quick: z.number() }),
    rule: z.string().nullable(),
    /** Present when the domain has no trained router model and routes by its rules alone. */
    routing: z.literal('rules-only').optional(),
  }),
  outcome: z.enum(['completed', 'denied', 'review', 'degraded', 'rate_limited', 'queued', 'failed']),
  text: z.string(),
  executed: z.array(z.string()),
  denied: z.array(z.string()),
  taskId: z.string().optional(),
  position: z.number().optional(),
  estimatedStartMs: z.number().optional(),
  ticketId: z.string().optional(),
  reviewId: z.string().optional(),
  /** The config version that served the request, when canary roll-outs are in use. */
  configVersion: z.string().optional(),
});

export const errorBody = z.object({
  error: z.string(),
  message: z.string(),
  field: z.string().optional(),
  /** With `unavailable` (503): how long to wait before retrying, as the Retry-After header says. */
  retryAfterMs: z.number().int().optional(),
});

export const auditRecord = z.object({
  id: z.string(),
  time: z.string(),
  tenant: z.string(),
  user: z.string(),
  sessionId: z.string(),
  agent: z.string(),
  domain: z.string(),
  tool: z.string(),
  callId: z.string(),
  argsHash: z.string(),
  status: z.string(),
  decisionPath: z.array(stageDecision),
  resultSummary: z.string(),
  durationMs: z.number(),
  decidedBy: stageDecision.optional(),
  args: z.unknown().optional(),
  argsLevel: z.string().optional(),
  reviewId: z.string().optional(),
  taskId: z.string().optional(),
});

export const reviewItem = z.object({
  id: z.string(),
  tenant: z.string(),
  user: z.string(),
  agent: z.string(),
  domain: z.string(),
  tool: z.string(),
  args: z.unknown(),
  reason: z.string(),
  decisionPath: z.array(stageDecision),
  status: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  decidedBy: z.string().optional(),
  decidedAt: z.string().optional(),
  decisionNote: z.string().optional(),
  /** True when a reviewers.yaml rule decided, not a person. */
  decidedByRule: z.boolean().optional(),
  requester: z.object({ roles: z.array(z.string()), dataLevel: z.string() }).optional(),
  taskId: z.string().optional(),
  /** The user's request the call came from (a deep task's request, a flagged input's text). */
  request: z.string().optional(),
  resultSummary: z.string().optional(),
});

export const taskSummary = z.object({
  id: z.string(),
  line: z.string(),
  status: z.string(),
  request: z.string(),
  user: z.string(),
  currentStep: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const taskStep = z.object({
  stepNo: z.number(),
  status: z.string(),
  goal: z.string(),
  tool: z.string().optional(),
  paramsValidated: z.boolean(),
  outputSummary: z.string().optional(),
  error: z.string().optional(),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
});

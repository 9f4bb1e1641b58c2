/**
 * The slots of a gateway, in the one order every gateway runs them (docs/architecture.md, "One
 * boundary"). A profile sets each slot on or off; the pipeline fills an on slot with its layer's
 * stage. Nothing else in the code orders stages.
 */
export const DECISION_SLOTS = [
  'access',
  'schema',
  'policy',
  'parameters',
  'intent',
  'review',
  'hooks',
  'approval',
  'rate-limit',
  'breaker',
] as const;
export type DecisionSlot = (typeof DECISION_SLOTS)[number];

/** What happens to a tool's output before the model sees it, in order. */
export const RESULT_SLOTS = ['quote', 'redact', 'fact'] as const;
export type ResultSlot = (typeof RESULT_SLOTS)[number];

export type Slot = DecisionSlot | ResultSlot;
export const SLOTS: readonly Slot[] = [...DECISION_SLOTS, ...RESULT_SLOTS];

/** What each slot decides or does, for `check --explain` and the docs. */
export const SLOT_PURPOSE: Readonly<Record<Slot, string>> = {
  access: 'the calling agent may use the tool (line allowlist, agent tool set, permission deny rules)',
  schema: 'arguments parse against the tool schema',
  policy: 'RBAC + ABAC from the policy files (tenant, roles, data level, attributes)',
  parameters: 'scope narrowing, dates near now, third-party text never an argument',
  intent: 'a high-risk tool runs only when the request declared it',
  review: 'tools that require review wait for a person',
  hooks:
    "the host's PreToolUse hooks: deny, ask or edit the input (an edit is decided again from the first slot); never looser",
  approval: 'approval mode and permission rules: allow, ask the host, or deny',
  'rate-limit': 'per-user call rate',
  breaker: "the tool's circuit breaker",
  quote: 'third-party text in the output is quoted as data',
  redact: "output fields are redacted by tag for the viewer's data level",
  fact: 'a quick-line write leaves only a short fact in the context',
};

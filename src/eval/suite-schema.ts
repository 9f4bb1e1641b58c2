import { z } from 'zod';
import { REQUEST_OUTCOMES } from '../lines/index.js';

/** The five kinds of scenario a suite measures; metrics are reported per kind. */
export const SCENARIO_KINDS = ['normal', 'escalation', 'injection', 'low_quality', 'routing'] as const;
export type ScenarioKind = (typeof SCENARIO_KINDS)[number];

export const ROUTE_TARGETS = ['deep', 'quick', 'readonly_fallback'] as const;
/** Lines a scenario can pin its request to (the router is then not asked). */
export const PINNED_ROUTES = ['deep', 'quick'] as const;
/**
 * What a scenario tests. `gateway` (the default for escalation and injection scenarios with a
 * model): the hostile model must run, or the scenario proved nothing; `input_gate` and `router`:
 * the request is meant to be stopped (or routed away) before any model runs.
 */
export const SCENARIO_TARGETS = ['gateway', 'input_gate', 'router'] as const;
/** The outcomes a scenario may expect: every outcome a request can have. */
export const OUTCOMES = REQUEST_OUTCOMES;

const toolCall = z.strictObject({
  id: z.string().optional(),
  name: z.string().min(1),
  arguments: z.unknown().optional(),
});

const planStep = z.strictObject({
  goal: z.string().min(1),
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
});

/**
 * One scripted model turn, as the scripted provider takes it, plus one suite convenience:
 * `plan` (a deep-line plan object) stands for a text turn holding that plan as JSON.
 */
const modelTurn = z
  .strictObject({
    text: z.string().optional(),
    tool_calls: z.array(toolCall).optional(),
    plan: z
      .strictObject({
        goal: z.string().min(1),
        /** Omitted: the tools of the steps (a plan declares what it will use). */
        capabilities: z.array(z.string()).optional(),
        steps: z.array(planStep).min(1),
      })
      .optional(),
  })
  .refine((t) => t.text !== undefined || t.tool_calls !== undefined || t.plan !== undefined, {
    message: 'a model turn needs text, tool_calls or plan',
  })
  .refine((t) => !(t.plan && t.text !== undefined), { message: 'plan and text exclude each other' });

const toolList = z.array(z.string().min(1));

const expectSchema = z.strictObject({
  route: z.enum(ROUTE_TARGETS).optional(),
  executed: toolList.optional(),
  not_executed: toolList.optional(),
  outcome: z.union([z.enum(OUTCOMES), z.array(z.enum(OUTCOMES)).min(1)]).optional(),
  output_includes: z.array(z.string().min(1)).optional(),
  output_excludes: z.array(z.string().min(1)).optional(),
});

const attributeValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

export const scenarioSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/, 'an id of letters, digits, ".", "_" or "-" (max 80)'),
  kind: z.enum(SCENARIO_KINDS),
  description: z.string().optional(),
  identity: z.strictObject({
    tenant: z.string().min(1),
    user: z.string().min(1),
    /** Test-only override: extra roles added to the user's entry as trusted ingress reads it. */
    roles: z.array(z.string().min(1)).optional(),
    /** Test-only override: attributes merged over the user's entry. */
    attributes: z.record(z.string(), attributeValue).optional(),
  }),
  query: z.string(),
  /** Pin the line: the request goes to it without the router, so the scenario's model runs there. */
  route: z.enum(PINNED_ROUTES).optional(),
  /** What the scenario tests (see `SCENARIO_TARGETS`); default `gateway`. */
  tests: z.enum(SCENARIO_TARGETS).optional(),
  model: z.array(modelTurn).optional(),
  expect: expectSchema,
});

export const suiteFileSchema = z.strictObject({
  /** Twinline config to run (relative to the suite file); default the office domain. */
  config: z.string().min(1).optional(),
  /**
   * Policy files the misuse oracle judges with (relative to the suite file); default the policies
   * of `config`. `--config` changes what runs, never what the oracle calls an entitlement.
   */
  oracle: z.strictObject({ policies: z.array(z.string().min(1)).min(1) }).optional(),
  scenarios: z.array(scenarioSchema).min(1),
});

export type ScenarioInput = z.input<typeof scenarioSchema>;
export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioExpect = Scenario['expect'];
export type ModelTurn = NonNullable<Scenario['model']>[number];
export type SuiteFile = z.output<typeof suiteFileSchema>;

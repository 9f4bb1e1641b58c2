import { z } from 'zod';
import { DATA_LEVELS } from '../core/index.js';

/**
 * The schemas of the configuration files, built on first use: a run that takes the office domain
 * from the build-time snapshot (every one-shot command, the stream-json engine) never builds them,
 * and building zod schemas is a large part of a cold start (docs/startup.md, "What keeps it fast").
 */
export function configSchemas(): ConfigSchemas {
  built ??= buildConfigSchemas();
  return built;
}

let built: ConfigSchemas | undefined;

type ConfigSchemas = ReturnType<typeof buildConfigSchemas>;

function buildConfigSchemas() {
  const name = z.string().regex(/^[a-zA-Z0-9_.-]{1,64}$/, 'letters, digits, _ . - only');
  /** A line allowlist entry: a tool name, `mcp__<server>` (all its tools) or a glob (`*`, `?`). */
  const toolPattern = z
    .string()
    .regex(
      /^[a-zA-Z0-9_.*?-]{1,128}$/,
      'a tool name, mcp__<server>, or a glob of letters, digits, _ . - * ?',
    );
  const lineAllow = z.strictObject({ allow: z.array(toolPattern).default([]) });

  /** `twinline.config.yaml` as written. Paths are relative to the config file's folder. */
  const configFile = z.strictObject({
    /** A short name of the domain, shown by the CLI and recorded in sessions. */
    domain: name.default('default'),
    /** Module exporting `tools: ToolSpec[]` or `createTools(options)`; options pass through. */
    tools: z.union([
      z.string().min(1),
      z.strictObject({ module: z.string().min(1), options: z.record(z.string(), z.unknown()).default({}) }),
    ]),
    users: z.string().min(1),
    roles: z.string().min(1).optional(),
    policies: z.array(z.string().min(1)).default([]),
    lines: z
      .strictObject({
        deep: z
          .strictObject({
            allow: z.array(toolPattern).default([]),
            /** Fair admission of deep tasks (docs/lines.md, "Admission"). */
            admission: z
              .strictObject({
                /** Tasks running at once: in this process, or in all of them on PostgreSQL. */
                concurrency: z.number().int().min(1).max(10_000).optional(),
                /** Tasks of one tenant running at once. */
                perTenant: z.number().int().min(1).max(10_000).optional(),
                /** Tasks of one user running at once. */
                perUser: z.number().int().min(1).max(10_000).optional(),
                /** Tasks one tenant may have waiting; more are refused. */
                maxQueuedPerTenant: z.number().int().min(1).max(1_000_000).optional(),
              })
              .optional(),
          })
          .optional(),
        quick: lineAllow.optional(),
        /**
         * The read-only line (uncertain requests, the degraded path): the one retrieval tool it
         * may call with `{ query, limit }`; without one it answers without documents.
         */
        readonly: z.strictObject({ retrieval: name.optional() }).optional(),
        /** The lines are separate trust chains; sharing a tool must be said explicitly. */
        allowOverlap: z.boolean().default(false),
      })
      .default({ allowOverlap: false }),
    /** How requests are routed to the lines (docs/router.md, "Configuring the router"). */
    router: routerSchema(name).optional(),
    /** The lines' system prompts (role and style only: no permission lives in a prompt). */
    prompts: z
      .strictObject({
        /** The quick line's system prompt; the current time and recent summaries are appended. */
        quick: z.string().min(1).max(8000).optional(),
        /** The deep planner's role; the plan format it must answer in is appended. */
        planner: z.string().min(1).max(8000).optional(),
        /** The deep line's composer, which writes the final answer from the step summaries. */
        composer: z.string().min(1).max(8000).optional(),
      })
      .optional(),
    /** The model service (docs/agent.md, "Model services"); the model itself is `--model` / `TWINLINE_MODEL`. */
    model: modelSchema().optional(),
    /** The data folder (store, watermark key, tool data); default `.twinline` beside this file. */
    dataDir: z.string().min(1).optional(),
    store: z
      .union([
        z.strictObject({ sqlite: z.string().min(1) }),
        z.strictObject({ url: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL') }),
      ])
      .optional(),
    /**
     * Session watermarks per channel (docs/gates.md, "Watermarks"): `text` — invisible, in free-text
     * answers; `field` — only the `watermark` token beside the answer; `off`.
     */
    watermark: z
      .strictObject({
        default: z.enum(['text', 'field', 'off']).default('text'),
        // Only the doors that exist: a channel nobody sends on could never mean what it says.
        channels: z.partialRecord(z.enum(EGRESS_CHANNELS), z.enum(['text', 'field', 'off'])).default({}),
      })
      .optional(),
    /** Upper bound on waiting for an approver, in ms. */
    approvalTimeoutMs: z.number().int().positive().optional(),
    /**
     * MCP servers whose tools are imported at start-up as `mcp__<server>__<tool>` (stdio: `command`;
     * streamable HTTP: `url`). Manifests are conservative (no annotation → medium risk, writes).
     */
    mcpServers: z.record(name, mcpServerSchema(name)).default({}),
    /** How text leaves (docs/gates.md, "Egress"). */
    egress: egressSchema().optional(),
    /** The input gate's cut-offs per channel (docs/gates.md, "Input gate"); `twinline scan --config` uses them. */
    inputGate: inputGateSchema().optional(),
    /** The decision log (docs/operations.md, "Decision log"): the level its arguments are redacted for. */
    audit: z.strictObject({ dataLevel: z.enum(DATA_LEVELS) }).optional(),
  });

  const attributeValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

  /** `users.yaml`: who exists, in which tenant, with which roles, data level and attributes. */
  const usersFile = z.strictObject({
    users: z
      .array(
        z.strictObject({
          tenant: name,
          user: name,
          roles: z.array(name),
          dataLevel: z.enum(DATA_LEVELS),
          attributes: z.record(z.string(), attributeValue).default({}),
        }),
      )
      .min(1),
  });

  /** `roles.yaml`: each role and the tool categories it is granted (ABAC builds on this). */
  const rolesFile = z.strictObject({
    roles: z.record(
      name,
      z.strictObject({
        description: z.string().optional(),
        categories: z.array(name).default([]),
      }),
    ),
  });
  return { configFile, usersFile, rolesFile };
}

/** The doors text leaves by (the watermark's `channel`; `watermark.channels` names them). */
export const EGRESS_CHANNELS = ['api', 'sse', 'review', 'stream-json', 'cli'] as const;

function egressSchema() {
  return z.strictObject({
    /** Domains inside the organisation: addresses and links there are not "outside". */
    internalDomains: z
      .array(z.string().regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, 'a domain name such as acme.example'))
      .default([]),
    /** What the streaming gate holds back (characters). */
    stream: z
      .strictObject({
        holdBack: z.number().int().min(0).max(4096).optional(),
        maxHold: z.number().int().min(1).max(65536).optional(),
      })
      .refine((s) => (s.maxHold ?? 384) > (s.holdBack ?? 96), {
        message: 'maxHold must be above holdBack (defaults 384 and 96)',
      })
      .optional(),
  });
}

function inputGateSchema() {
  const cut = z
    .strictObject({ review: z.number().gt(0).max(1), block: z.number().gt(0).max(1) })
    .refine((t) => t.block >= t.review, { message: 'block must be at or above review' });
  return z.strictObject({
    thresholds: z.strictObject({ user_input: cut.optional(), tool_output: cut.optional() }).optional(),
    /** What a `block` verdict becomes at the gateway: `review` (default) or `deny`. */
    blockAs: z.enum(['review', 'deny']).optional(),
  });
}

/** Regular expression source that compiles, for a configured routing rule. */
function regexSource() {
  return z
    .string()
    .min(1)
    .max(2000)
    .superRefine((src, ctx) => {
      try {
        new RegExp(src, 'u');
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `not a regular expression: ${(err as Error).message}` });
      }
    });
}

/**
 * `router`: a weights file, rule presets and the domain's own rules. Each must be said: an empty
 * `router: {}` routes nothing and fails to load (docs/router.md).
 */
function routerSchema(name: z.ZodString) {
  const rule = z
    .strictObject({
      id: name,
      /** The line the rule leans toward. */
      line: z.enum(['deep', 'quick', 'readonly']),
      /** Whole words or phrases (case-insensitive; Chinese phrases match anywhere). */
      phrases: z.array(z.string().min(1).max(200)).min(1).optional(),
      /** Or a regular expression over the normalised (NFKC, lower-case) request. */
      pattern: regexSource().optional(),
      /** Log-likelihood ratio added to the line (default 3: decisive on its own, docs/router.md). */
      weight: z.number().positive().max(10).default(3),
    })
    .refine((r) => (r.phrases === undefined) !== (r.pattern === undefined), {
      message: 'a rule needs exactly one of `phrases` or `pattern`',
    });
  return z
    .strictObject({
      /** A classifier weights file (`twinline router train` writes one); omit for rules only. */
      weights: z.string().min(1).optional(),
      /** Built-in rule tables to include (`office`: the sample domain's rules). */
      presets: z.array(z.enum(['office'])).default([]),
      rules: z.array(rule).default([]),
      /** Confidence a tool line must reach (default 0.82). */
      threshold: z.number().gt(0).max(1).optional(),
    })
    .refine((r) => r.weights !== undefined || r.presets.length > 0 || r.rules.length > 0, {
      message:
        'router names no weights file, preset or rule, so it could route nothing: add `rules`, `presets: [office]` or `weights`',
    });
}

/** `model`: how Twinline talks to the model service. */
function modelSchema() {
  return z.strictObject({
    /** Longest wait for a response to start, per request, in ms (default 60000). */
    requestTimeoutMs: z.number().int().min(100).max(3_600_000).optional(),
    /** Longest silence inside a streamed response, in ms (default 30000). */
    streamIdleTimeoutMs: z.number().int().min(100).max(3_600_000).optional(),
    /** Stream responses (default true); false asks for whole responses. */
    stream: z.boolean().optional(),
    /** Retries after a failed request (429, 5xx, connection errors; default 2). */
    maxRetries: z.number().int().min(0).max(10).optional(),
  });
}

function mcpServerSchema(name: z.ZodString) {
  const policy = {
    /** Roles that may call the server's tools (default: every role in users.yaml). */
    allowedRoles: z.array(name).optional(),
    category: name.optional(),
    requiredDataLevel: z.enum(DATA_LEVELS).optional(),
    timeoutMs: z.number().int().positive().optional(),
  };
  return z.union([
    z.strictObject({
      command: z.string().min(1),
      args: z.array(z.string()).default([]),
      env: z.record(z.string(), z.string()).default({}),
      cwd: z.string().optional(),
      /**
       * Run the server in the process sandbox (docs/sandbox.md): `read-only`, `workspace-write`
       * (its `cwd` writable), or `network` with the domains its egress proxy lets through.
       */
      sandbox: z
        .union([
          z.enum(['read-only', 'workspace-write']),
          z.strictObject({
            profile: z.enum(['read-only', 'workspace-write', 'network']),
            allowedDomains: z.array(z.string().min(1)).default([]),
            readRoots: z.array(z.string().startsWith('/')).default([]),
          }),
        ])
        .optional(),
      ...policy,
    }),
    z.strictObject({
      url: z.url({ protocol: /^https?$/ }),
      headers: z.record(z.string(), z.string()).default({}),
      ...policy,
    }),
  ]);
}

/** The `router` section as written. */
export type RouterSection = z.infer<ReturnType<typeof routerSchema>>;
/** The `inputGate` section as written. */
export type InputGateSection = z.infer<ReturnType<typeof inputGateSchema>>;
/** The `model` section as written. */
export type ModelSection = z.infer<ReturnType<typeof modelSchema>>;

/** `twinline.config.yaml` as written. */
export type ConfigFile = z.infer<ConfigSchemas['configFile']>;
/** `users.yaml` as written. */
export type UsersFile = z.infer<ConfigSchemas['usersFile']>;
/** `roles.yaml` as written. */
export type RolesFile = z.infer<ConfigSchemas['rolesFile']>;

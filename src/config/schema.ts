import { z } from 'zod';
import { DATA_LEVELS } from '../core/index.js';

/**
 * The schemas of the configuration files, built on first use: a run that takes the office domain
 * from the build-time snapshot (every one-shot command, the stream-json engine) never builds them,
 * and building zod schemas is a large part of a cold start (issue 11).
 */
export function configSchemas(): ConfigSchemas {
  built ??= buildConfigSchemas();
  return built;
}

let built: ConfigSchemas | undefined;

type ConfigSchemas = ReturnType<typeof buildConfigSchemas>;

function buildConfigSchemas() {
  const name = z.string().regex(/^[a-zA-Z0-9_.-]{1,64}$/, 'letters, digits, _ . - only');

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
        deep: z.strictObject({ allow: z.array(name).default([]) }).optional(),
        quick: z.strictObject({ allow: z.array(name).default([]) }).optional(),
        /** The lines are separate trust chains; sharing a tool must be said explicitly. */
        allowOverlap: z.boolean().default(false),
      })
      .default({ allowOverlap: false }),
    router: z.record(z.string(), z.unknown()).default({}),
    store: z
      .union([
        z.strictObject({ sqlite: z.string().min(1) }),
        z.strictObject({ url: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL') }),
      ])
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

/** The doors whose text the egress gate marks (`egress.unwatermarkedChannels` names them). */
export const EGRESS_CHANNELS = ['api', 'sse', 'review', 'stream-json', 'cli'] as const;

function egressSchema() {
  return z.strictObject({
    /** Domains inside the organisation: addresses and links there are not "outside". */
    internalDomains: z
      .array(z.string().regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, 'a domain name such as acme.example'))
      .default([]),
    /** Doors whose text is sent without a watermark (still classified and redacted). */
    unwatermarkedChannels: z.array(z.enum(EGRESS_CHANNELS)).default([]),
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
      ...policy,
    }),
    z.strictObject({
      url: z.url({ protocol: /^https?$/ }),
      headers: z.record(z.string(), z.string()).default({}),
      ...policy,
    }),
  ]);
}

/** `twinline.config.yaml` as written. */
export type ConfigFile = z.infer<ConfigSchemas['configFile']>;
/** `users.yaml` as written. */
export type UsersFile = z.infer<ConfigSchemas['usersFile']>;
/** `roles.yaml` as written. */
export type RolesFile = z.infer<ConfigSchemas['rolesFile']>;

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { loadYamlFile } from '../config/index.js';
import { ConfigError } from '../core/index.js';
import {
  type AuthSettings,
  MAX_JWT_CLOCK_SKEW_S,
  MAX_JWT_LIFETIME_S,
  type MetricsKeyEntry,
} from './auth/index.js';

const keyHash = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256:<64 hex digits>');

/** `host:port` of a listener (IPv6 hosts in brackets). */
const listenAddress = z
  .string()
  .regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'must be host:port, e.g. 127.0.0.1:9464');

const authFileSchema = z.strictObject({
  apiKeys: z
    .array(
      z.strictObject({
        tenant: z.string().min(1),
        user: z.string().min(1),
        hash: keyHash,
        label: z.string().optional(),
      }),
    )
    .default([]),
  jwt: z
    .strictObject({
      issuer: z.string().min(1),
      audience: z.string().min(1).optional(),
      secret: z.string().min(32).optional(),
      publicKey: z.string().optional(),
      algorithm: z.enum(['RS256', 'ES256', 'EdDSA']).optional(),
      tenantClaim: z.string().optional(),
      maxLifetimeSeconds: z.number().int().min(1).max(MAX_JWT_LIFETIME_S).optional(),
      clockSkewSeconds: z.number().int().min(0).max(MAX_JWT_CLOCK_SKEW_S).optional(),
    })
    .optional(),
  reviewerRoles: z.array(z.string()).default(['reviewer']),
  /** Roles that, like reviewers, see every entry of their tenant's lists (routing, tasks, reviews, audit). */
  adminRoles: z.array(z.string()).default(['admin']),
  /** Who may read `GET /metrics`: operator keys on the API listener, and/or a listener of its own. */
  metrics: z
    .strictObject({
      keys: z.array(z.strictObject({ hash: keyHash, label: z.string().optional() })).default([]),
      listen: listenAddress.optional(),
    })
    .optional(),
  /** Roles that may read the tenant's whole audit, tasks and review queue, but decide nothing. */
  auditorRoles: z.array(z.string()).default(['auditor']),
});

export interface LoadedAuth {
  readonly settings: AuthSettings;
  readonly reviewerRoles: readonly string[];
  readonly adminRoles: readonly string[];
  /** Keys that may read `/metrics` on the API listener (none: it is refused there). */
  readonly metricsKeys: readonly MetricsKeyEntry[];
  /** A separate `host:port` serving `/metrics` without credentials (`TWINLINE_METRICS_LISTEN` wins). */
  readonly metricsListen: string | undefined;
  readonly auditorRoles: readonly string[];
  readonly file: string | undefined;
}

/**
 * Credentials live apart from the config (`auth.yaml` beside it, or `TWINLINE_AUTH_FILE`): API
 * keys as hashes, JWT settings, and who may read the metrics. Validated with errors naming file,
 * line and field.
 */
export function loadAuthFile(
  configFile: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): LoadedAuth {
  const file = env.TWINLINE_AUTH_FILE || join(dirname(configFile), 'auth.yaml');
  const envListen = env.TWINLINE_METRICS_LISTEN || undefined;
  if (envListen !== undefined && !listenAddress.safeParse(envListen).success) {
    throw new ConfigError(
      'server.metrics-listen',
      `must be host:port, e.g. 127.0.0.1:9464, not ${JSON.stringify(envListen)}`,
      {
        where: 'TWINLINE_METRICS_LISTEN',
      },
    );
  }
  if (!existsSync(file))
    return {
      settings: {},
      reviewerRoles: ['reviewer'],
      adminRoles: ['admin'],
      auditorRoles: ['auditor'],
      metricsKeys: [],
      metricsListen: envListen,
      file: undefined,
    };
  const raw = loadYamlFile(file, authFileSchema);
  return {
    settings: { apiKeys: raw.apiKeys, ...(raw.jwt ? { jwt: raw.jwt } : {}) },
    reviewerRoles: raw.reviewerRoles,
    adminRoles: raw.adminRoles,
    metricsKeys: raw.metrics?.keys ?? [],
    metricsListen: envListen ?? raw.metrics?.listen,
    auditorRoles: raw.auditorRoles,
    file,
  };
}

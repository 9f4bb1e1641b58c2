import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { loadYamlFile } from '../config/index.js';
import type { AuthSettings } from './auth/index.js';

const authFileSchema = z.strictObject({
  apiKeys: z
    .array(
      z.strictObject({
        tenant: z.string().min(1),
        user: z.string().min(1),
        hash: z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256:<64 hex digits>'),
        label: z.string().optional(),
      }),
    )
    .default([]),
  jwt: z
    .strictObject({
      issuer: z.string().min(1),
      audience: z.string().optional(),
      secret: z.string().min(32).optional(),
      publicKey: z.string().optional(),
      algorithm: z.enum(['RS256', 'ES256', 'EdDSA']).optional(),
      tenantClaim: z.string().optional(),
    })
    .optional(),
  reviewerRoles: z.array(z.string()).default(['reviewer']),
  /** Roles that may read the tenant's whole audit, tasks and review queue, but decide nothing. */
  auditorRoles: z.array(z.string()).default(['auditor']),
});

export interface LoadedAuth {
  readonly settings: AuthSettings;
  readonly reviewerRoles: readonly string[];
  readonly auditorRoles: readonly string[];
  readonly file: string | undefined;
}

/**
 * Credentials live apart from the config (`auth.yaml` beside it, or `TWINLINE_AUTH_FILE`): API
 * keys as hashes and JWT settings. Validated with errors naming file, line and field.
 */
export function loadAuthFile(
  configFile: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): LoadedAuth {
  const file = env.TWINLINE_AUTH_FILE || join(dirname(configFile), 'auth.yaml');
  if (!existsSync(file))
    return { settings: {}, reviewerRoles: ['reviewer'], auditorRoles: ['auditor'], file: undefined };
  const raw = loadYamlFile(file, authFileSchema);
  return {
    settings: { apiKeys: raw.apiKeys, ...(raw.jwt ? { jwt: raw.jwt } : {}) },
    reviewerRoles: raw.reviewerRoles,
    auditorRoles: raw.auditorRoles,
    file,
  };
}

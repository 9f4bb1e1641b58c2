import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, type DataLevel, type Identity } from '../core/index.js';
import type { PolicyDocument } from '../policy/index.js';
import { type ConfigFile, configSchemas, type RolesFile } from './schema.js';
import { loadYamlFile } from './yaml-file.js';

/** A loaded configuration: every referenced file read and validated, every path absolute. */
export interface TwinlineConfig {
  /** Absolute path of the config file. */
  readonly file: string;
  readonly domain: string;
  readonly tools: { readonly module: string; readonly options: Readonly<Record<string, unknown>> };
  readonly users: readonly Identity[];
  readonly roles: RolesFile['roles'];
  readonly policies: readonly string[];
  /**
   * `policies` already parsed, in the same order: only in the build-time snapshot of the office
   * domain (`prebuiltOfficeDomain()`), whose source hash covers the policy files.
   */
  readonly policyDocuments?: readonly PolicyDocument[];
  readonly lines: {
    readonly deep: readonly string[];
    readonly quick: readonly string[];
    readonly allowOverlap?: boolean;
  };
  readonly router: Readonly<Record<string, unknown>>;
  /** Store location from the file; `TWINLINE_DATABASE_URL` still takes precedence at open time. */
  readonly store: { readonly sqliteFile?: string; readonly url?: string };
  readonly approvalTimeoutMs?: number;
  /** MCP servers to import at start-up (`mcpServers` in the file). */
  readonly mcpServers: Readonly<Record<string, ConfigFile['mcpServers'][string]>>;
  /** How text leaves (`egress` in the file; docs/gates.md, "Egress"). */
  readonly egress?: EgressConfig;
  /** The decision log's settings (`audit` in the file; docs/operations.md, "Decision log"). */
  readonly audit?: { readonly dataLevel: DataLevel };
}

/** The `egress` section of `twinline.config.yaml`. */
export interface EgressConfig {
  readonly internalDomains: readonly string[];
  readonly unwatermarkedChannels: readonly string[];
  readonly stream?: { readonly holdBack?: number; readonly maxHold?: number };
}

/** Path of the built-in office domain's configuration. */
export const OFFICE_CONFIG_PATH: string = fileURLToPath(
  new URL('../../examples/office/twinline.config.yaml', import.meta.url),
);

/**
 * Loads `twinline.config.yaml` (default: the office domain) and the users and roles files it
 * names. Throws `ConfigError` naming file, line and field.
 */
export function loadConfig(path?: string): TwinlineConfig {
  const file = resolve(path ?? OFFICE_CONFIG_PATH);
  if (!existsSync(file)) throw new ConfigError('config.not-found', 'config file not found', { where: file });
  const raw = loadYamlFile(file, configSchemas().configFile);
  const dir = dirname(file);
  const rel = (p: string) => (isAbsolute(p) ? p : resolve(dir, p));
  const tools = typeof raw.tools === 'string' ? { module: raw.tools, options: {} } : raw.tools;

  const usersFile = rel(raw.users);
  const users = loadYamlFile(usersFile, configSchemas().usersFile).users;
  const seen = new Set<string>();
  for (const u of users) {
    const key = `${u.tenant}/${u.user}`;
    if (seen.has(key)) {
      throw new ConfigError('config.duplicate-user', `user ${key} is declared twice`, { where: usersFile });
    }
    seen.add(key);
  }
  const roles = raw.roles ? loadYamlFile(rel(raw.roles), configSchemas().rolesFile).roles : {};
  if (raw.roles) {
    for (const u of users) {
      for (const role of u.roles) {
        if (!(role in roles)) {
          throw new ConfigError(
            'config.unknown-role',
            `user ${u.tenant}/${u.user} has undeclared role ${role}`,
            {
              where: usersFile,
            },
          );
        }
      }
    }
  }
  const store =
    raw.store === undefined
      ? {}
      : 'sqlite' in raw.store
        ? { sqliteFile: resolve(raw.store.sqlite) }
        : { url: raw.store.url };
  return {
    file,
    domain: raw.domain,
    tools: { module: rel(tools.module), options: tools.options },
    users,
    roles,
    policies: raw.policies.map(rel),
    lines: {
      deep: raw.lines.deep?.allow ?? [],
      quick: raw.lines.quick?.allow ?? [],
      allowOverlap: raw.lines.allowOverlap,
    },
    router: raw.router,
    store,
    ...(raw.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: raw.approvalTimeoutMs } : {}),
    mcpServers: Object.fromEntries(
      Object.entries(raw.mcpServers).map(([n, srv]) => [
        n,
        'cwd' in srv && srv.cwd ? { ...srv, cwd: rel(srv.cwd) } : srv,
      ]),
    ),
    ...(raw.egress ? { egress: raw.egress } : {}),
    ...(raw.audit ? { audit: raw.audit } : {}),
  };
}

/** The office sample domain's configuration (tools, users, roles of `examples/office/`). */
export function loadOfficeDomain(): TwinlineConfig {
  return loadConfig(OFFICE_CONFIG_PATH);
}

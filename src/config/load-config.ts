import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, type DataLevel, type Identity } from '../core/index.js';
import type { PolicyDocument } from '../policy/index.js';
import { resolveDataDir } from './data-dir.js';
import {
  type ConfigFile,
  configSchemas,
  type InputGateSection,
  type ModelSection,
  type RolesFile,
  type RouterSection,
} from './schema.js';
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
    /** Tool names and patterns (`mcp__<server>`, globs) as written; `resolveLineAllowlists` expands them. */
    readonly deep: readonly string[];
    readonly quick: readonly string[];
    /** The read-only line's retrieval tool (`lines.readonly.retrieval`), if any. */
    readonly retrieval?: string;
    readonly allowOverlap?: boolean;
    /** `lines.deep.admission` as written (defaults are filled in by `resolveDeepAdmission`). */
    readonly deepAdmission?: DeepAdmissionConfig;
  };
  /** How requests are routed; absent: no rule and no model (every request goes to the read-only line). */
  readonly router?: RouterConfig;
  /** The lines' system prompts from the file (code has neutral defaults). */
  readonly prompts?: PromptsConfig;
  /** Model service settings (timeouts, streaming, retries). */
  readonly model?: ModelSection;
  /**
   * The data folder, absolute: `--data-dir`, else `TWINLINE_HOME`, else `dataDir` in the file,
   * else `.twinline` beside the file (the built-in sample domain: `.twinline` of the working
   * directory, since its file sits inside the installed package).
   */
  readonly dataDir: string;
  /**
   * Store location from the file; `TWINLINE_DATABASE_URL` still takes precedence at open time.
   * Neither given: `twinline.sqlite` in the data folder (`configuredStore`).
   */
  readonly store: { readonly sqliteFile?: string; readonly url?: string };
  readonly approvalTimeoutMs?: number;
  /** Session watermarks per channel (`watermark` in the file; absent: invisible in every channel's text). */
  readonly watermark?: {
    readonly default: 'text' | 'field' | 'off';
    readonly channels: Readonly<Partial<Record<string, 'text' | 'field' | 'off'>>>;
  };
  /** MCP servers to import at start-up (`mcpServers` in the file). */
  readonly mcpServers: Readonly<Record<string, ConfigFile['mcpServers'][string]>>;
  /** How text leaves (`egress` in the file; docs/gates.md, "Egress"). */
  readonly egress?: EgressConfig;
  /** The input gate's cut-offs (`inputGate` in the file). */
  readonly inputGate?: InputGateSection;
  /** The decision log's settings (`audit` in the file; docs/operations.md, "Decision log"). */
  readonly audit?: { readonly dataLevel: DataLevel };
}

/** The `router` section with its weights path made absolute. */
export type RouterConfig = RouterSection;

/** The `prompts` section. */
export interface PromptsConfig {
  readonly quick?: string;
  readonly planner?: string;
  readonly composer?: string;
}

/** Where a config's data folder comes from, beside the file itself. */
export interface LoadConfigOptions {
  /** `--data-dir` (wins over everything). */
  readonly dataDir?: string;
  /** Environment for `TWINLINE_HOME` (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The `egress` section of `twinline.config.yaml`. */
export interface EgressConfig {
  readonly internalDomains: readonly string[];
  readonly stream?: { readonly holdBack?: number; readonly maxHold?: number };
}

/** `lines.deep.admission`: caps on deep tasks running at once, and on a tenant's backlog. */
export interface DeepAdmissionConfig {
  readonly concurrency?: number;
  readonly perTenant?: number;
  readonly perUser?: number;
  readonly maxQueuedPerTenant?: number;
}

/** Path of the built-in office domain's configuration. */
export const OFFICE_CONFIG_PATH: string = fileURLToPath(
  new URL('../../examples/office/twinline.config.yaml', import.meta.url),
);

/**
 * Loads `twinline.config.yaml` (default: the office domain) and the users and roles files it
 * names. Throws `ConfigError` naming file, line and field.
 */
export function loadConfig(path?: string, options: LoadConfigOptions = {}): TwinlineConfig {
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
  if (raw.lines.deep?.admission) resolveDeepAdmission(raw.lines.deep.admission, undefined, file);
  const store =
    raw.store === undefined
      ? {}
      : 'sqlite' in raw.store
        ? { sqliteFile: raw.store.sqlite === ':memory:' ? ':memory:' : rel(raw.store.sqlite) }
        : { url: raw.store.url };
  const dataDir = resolveDataDir({
    ...(options.dataDir !== undefined ? { flag: options.dataDir } : {}),
    env: options.env ?? process.env,
    ...(raw.dataDir !== undefined ? { configured: rel(raw.dataDir) } : {}),
    configFile: file,
    builtin: file === OFFICE_CONFIG_PATH,
  });
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
      ...(raw.lines.readonly?.retrieval ? { retrieval: raw.lines.readonly.retrieval } : {}),
      allowOverlap: raw.lines.allowOverlap,
      ...(raw.lines.deep?.admission ? { deepAdmission: raw.lines.deep.admission } : {}),
    },
    ...(raw.router
      ? { router: { ...raw.router, ...(raw.router.weights ? { weights: rel(raw.router.weights) } : {}) } }
      : {}),
    ...(raw.prompts ? { prompts: raw.prompts } : {}),
    ...(raw.model ? { model: raw.model } : {}),
    dataDir,
    store,
    ...(raw.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: raw.approvalTimeoutMs } : {}),
    ...(raw.watermark ? { watermark: raw.watermark } : {}),
    mcpServers: Object.fromEntries(
      Object.entries(raw.mcpServers).map(([n, srv]) => [
        n,
        'cwd' in srv && srv.cwd ? { ...srv, cwd: rel(srv.cwd) } : srv,
      ]),
    ),
    ...(raw.egress ? { egress: raw.egress } : {}),
    ...(raw.inputGate ? { inputGate: raw.inputGate } : {}),
    ...(raw.audit ? { audit: raw.audit } : {}),
  };
}

/** The office sample domain's configuration (tools, users, roles of `examples/office/`). */
export function loadOfficeDomain(options: LoadConfigOptions = {}): TwinlineConfig {
  return loadConfig(OFFICE_CONFIG_PATH, options);
}

/** The admission caps in force: what the config says, the defaults for the rest. */
export interface DeepAdmissionSettings {
  readonly concurrency: number;
  readonly perTenant: number;
  readonly perUser: number;
  readonly maxQueuedPerTenant: number;
}

/**
 * Fills in the admission defaults — 4 at once; a tenant one fewer, so another tenant always
 * finds a free slot; a user at most 2 — and refuses caps that cannot all hold
 * (perUser ≤ perTenant ≤ concurrency). `concurrency` overrides the file (TWINLINE_DEEP_CONCURRENCY).
 */
export function resolveDeepAdmission(
  written: DeepAdmissionConfig | undefined,
  concurrency: number | undefined,
  file: string,
): DeepAdmissionSettings {
  const where = `${file}: lines.deep.admission`;
  const c = concurrency ?? written?.concurrency ?? 4;
  if (!Number.isInteger(c) || c < 1) {
    throw new ConfigError('config.deep-admission', `concurrency must be a positive integer, got ${c}`, {
      where,
    });
  }
  const perTenant = written?.perTenant ?? Math.max(1, c - 1);
  const perUser = written?.perUser ?? Math.min(2, perTenant);
  if (perTenant > c) {
    throw new ConfigError(
      'config.deep-admission',
      `perTenant (${perTenant}) is more than concurrency (${c}): a tenant could never use that many`,
      { where },
    );
  }
  if (perUser > perTenant) {
    throw new ConfigError(
      'config.deep-admission',
      `perUser (${perUser}) is more than perTenant (${perTenant}): a user could never use that many`,
      { where },
    );
  }
  return { concurrency: c, perTenant, perUser, maxQueuedPerTenant: written?.maxQueuedPerTenant ?? 1000 };
}

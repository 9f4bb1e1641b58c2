import type { SandboxGrant, SandboxProfile } from '../../../core/index.js';
import type { EngineStatePath } from '../../engine-state.js';
import type { ProcessSandboxPort } from '../../spec.js';
import { WorkspaceToolError } from '../errors.js';
import type { WorkspaceRoots } from '../workspace-roots.js';
import { EGRESS_DIR, SANDBOX_HOME } from './bubblewrap-args.js';
import { BubblewrapBackend, DEFAULT_BWRAP_PATH, type SandboxStatus } from './bubblewrap-backend.js';
import { EGRESS_BRIDGE_PORT, EGRESS_BRIDGE_SOURCE } from './egress-bridge-source.js';
import { type EgressProxy, startEgressProxy } from './egress-proxy.js';

/** Configuration of the process sandbox. Every field has a safe default. */
export interface SandboxOptions {
  /** The bubblewrap binary (default `/usr/bin/bwrap`). A path that does not work means no sandbox: fail closed. */
  readonly bwrapPath?: string;
  /** Directories shown read-only besides the workspace (the read allowlist; default none). */
  readonly readRoots?: readonly string[];
  /** Further absolute paths kept read-only under `workspace-write` (e.g. an audit DB inside the workspace). */
  readonly protectedPaths?: readonly string[];
  /**
   * The session's engine state (`engineStatePaths`): its secret part (the audit database, the
   * watermark key, the data folder) is hidden from every profile where a root would show it, as
   * the read tools refuse it. Each root's own `.twinline/` is hidden without it.
   */
  readonly engineState?: readonly EngineStatePath[];
  /**
   * Let the egress proxy reach allowed hosts that resolve to non-public addresses. Off by default,
   * as for `web_fetch`; tests that stand up a local upstream turn it on.
   */
  readonly allowPrivateNetwork?: boolean;
}

/** A command line ready to spawn, and what to release when it has finished. */
export interface PreparedRun {
  readonly argv: readonly [string, ...string[]];
  readonly env: Readonly<Record<string, string>>;
  /** The profile it runs under (`unconfined` only when approved so and no sandbox exists). */
  readonly profile: SandboxProfile;
  readonly egress?: EgressProxy;
  release(): Promise<void>;
}

/**
 * Environment that makes git's config-driven programs inert in a read-only run: no fsmonitor
 * hook, no hooks at all, no pager (config given this way outranks the repository's own).
 */
const READ_ONLY_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_COUNT: '3',
  GIT_CONFIG_KEY_0: 'core.fsmonitor',
  GIT_CONFIG_VALUE_0: 'false',
  GIT_CONFIG_KEY_1: 'core.hooksPath',
  GIT_CONFIG_VALUE_1: '/dev/null',
  GIT_CONFIG_KEY_2: 'core.pager',
  GIT_CONFIG_VALUE_2: 'cat',
};

/**
 * The sandbox every process a tool starts runs in (docs/sandbox.md). The profile comes from the
 * call's grant, which the gateway takes from the approval stage's decision; without a grant a
 * run is `read-only`. Where no sandbox can be created, only a grant of `unconfined` (a person
 * approved exactly that) runs anything, and it runs as asked; everything else is refused.
 */
export class ProcessSandbox implements ProcessSandboxPort {
  readonly backend: BubblewrapBackend;
  readonly #options: SandboxOptions;

  constructor(options: SandboxOptions = {}) {
    this.#options = options;
    this.backend = new BubblewrapBackend(options.bwrapPath ?? DEFAULT_BWRAP_PATH);
  }

  status(): SandboxStatus {
    return this.backend.status();
  }

  available(): boolean {
    return this.backend.status().available;
  }

  describe(): string {
    return this.backend.describe();
  }

  /**
   * Prepares `argv` (e.g. `/bin/sh -c …`) to run under `grant` in `roots`: wraps it in
   * bubblewrap, and for `network` starts the egress proxy and puts the bridge in front.
   */
  async prepare(
    grant: SandboxGrant | undefined,
    roots: WorkspaceRoots,
    argv: readonly [string, ...string[]],
    env: Readonly<Record<string, string>>,
    tool = 'shell',
  ): Promise<PreparedRun> {
    const asked = grant?.profile ?? 'read-only';
    if (!this.available()) {
      if (asked !== 'unconfined') {
        throw new WorkspaceToolError(
          'workspace.sandbox-unavailable',
          `no sandbox can be created here (${this.status().reason}) and this call was not approved to run unconfined`,
          tool,
        );
      }
      return { argv, env, profile: 'unconfined', release: async () => {} };
    }
    // A sandbox exists, so nothing runs unconfined: an `unconfined` grant runs as workspace-write.
    let profile: Exclude<SandboxProfile, 'unconfined'> = asked === 'unconfined' ? 'workspace-write' : asked;
    if (profile === 'network' && (grant?.allowedDomains ?? []).length === 0) profile = 'workspace-write';
    const sandboxEnv: Record<string, string> = { ...env, HOME: SANDBOX_HOME, TMPDIR: SANDBOX_HOME };
    if (profile === 'read-only') Object.assign(sandboxEnv, READ_ONLY_GIT_ENV);
    let egress: EgressProxy | undefined;
    let inner: readonly string[] = argv;
    const extraFiles: string[] = [];
    if (profile === 'network') {
      egress = await startEgressProxy({
        allowedDomains: grant?.allowedDomains ?? [],
        deniedDomains: grant?.deniedDomains ?? [],
        ...(this.#options.allowPrivateNetwork ? { allowPrivateNetwork: true } : {}),
      });
      const proxyUrl = `http://127.0.0.1:${EGRESS_BRIDGE_PORT}`;
      for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'ALL_PROXY', 'all_proxy']) {
        sandboxEnv[k] = proxyUrl;
      }
      sandboxEnv['NO_PROXY'] = '';
      sandboxEnv['no_proxy'] = '';
      inner = [
        process.execPath,
        '-e',
        EGRESS_BRIDGE_SOURCE,
        '--',
        `${EGRESS_DIR}/proxy.sock`,
        String(EGRESS_BRIDGE_PORT),
        ...argv,
      ];
      if (!/^\/(usr|bin|lib|sbin)\//.test(process.execPath)) extraFiles.push(process.execPath);
    }
    let wrapped: { file: string; args: string[] };
    try {
      wrapped = this.backend.wrap(
        {
          profile,
          cwd: roots.root,
          workspaceRoots: [roots.root, ...roots.extra],
          readRoots: this.#options.readRoots ?? [],
          extraProtected: this.#options.protectedPaths ?? [],
          ...(this.#options.engineState ? { engineState: this.#options.engineState } : {}),
          ...(egress ? { egressDir: egress.dir } : {}),
          ...(extraFiles.length > 0 ? { extraFiles } : {}),
        },
        inner,
      );
    } catch (error) {
      await egress?.close();
      throw error;
    }
    return {
      argv: [wrapped.file, ...wrapped.args],
      env: sandboxEnv,
      profile,
      ...(egress ? { egress } : {}),
      release: async () => {
        await egress?.close();
      },
    };
  }
}

/**
 * Sandbox options an operator sets in the engine's environment (never the model or the host):
 * `TWINLINE_SANDBOX_BWRAP` (the bubblewrap binary) and `TWINLINE_SANDBOX_READ_ROOTS`
 * (`:`-separated directories shown read-only besides the workspace).
 */
export function sandboxOptionsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  protectedPaths: readonly string[] = [],
  engineState?: readonly EngineStatePath[],
): SandboxOptions {
  const bwrap = env['TWINLINE_SANDBOX_BWRAP'];
  const roots = (env['TWINLINE_SANDBOX_READ_ROOTS'] ?? '')
    .split(':')
    .map((r) => r.trim())
    .filter((r) => r.startsWith('/'));
  return {
    ...(bwrap ? { bwrapPath: bwrap } : {}),
    ...(roots.length > 0 ? { readRoots: roots } : {}),
    ...(protectedPaths.length > 0 ? { protectedPaths } : {}),
    ...(engineState ? { engineState } : {}),
  };
}

/** The audit DB file and what SQLite keeps beside it: kept read-only to sandboxed commands. */
export function sqliteStatePaths(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];
}

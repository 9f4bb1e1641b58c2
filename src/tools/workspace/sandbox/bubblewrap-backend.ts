import type { EngineStatePath } from '../../engine-state.js';
import { childProcess } from '../lazy-builtins.js';
import { bubblewrapArgs, type ConfinedProfile } from './bubblewrap-args.js';
import { sandboxEtc } from './sandbox-etc.js';
import { planSandbox } from './sandbox-plan.js';

/** Where `bwrap` is looked for when no path is configured. */
export const DEFAULT_BWRAP_PATH = '/usr/bin/bwrap';

/** What the start-up probe found. */
export interface SandboxStatus {
  readonly available: boolean;
  readonly backend: 'bubblewrap';
  readonly binary: string;
  /** `bubblewrap 0.8.0`, when it ran. */
  readonly version?: string;
  /** Why no sandbox can be created, when `available` is false. */
  readonly reason?: string;
  /** Nested user namespaces are refused inside (`--disable-userns`). */
  readonly disableUserns: boolean;
}

export interface SandboxRunSpec {
  readonly profile: ConfinedProfile;
  readonly cwd: string;
  readonly workspaceRoots: readonly string[];
  readonly readRoots: readonly string[];
  readonly extraProtected: readonly string[];
  /** `network`: host directory holding the egress proxy's socket. */
  readonly egressDir?: string;
  readonly extraFiles?: readonly string[];
  /** The session's engine state: its secret part is hidden inside the sandbox. */
  readonly engineState?: readonly EngineStatePath[];
}

/** Probe results per binary: one probe per process, however many tools share a binary. */
const probed = new Map<string, SandboxStatus>();

/** The sandbox backend on Linux: bubblewrap (user, mount, PID, IPC, UTS and network namespaces). */
export class BubblewrapBackend {
  readonly binary: string;

  constructor(binary: string = DEFAULT_BWRAP_PATH) {
    this.binary = binary;
  }

  /**
   * Probes once (a sandboxed `true`, a few milliseconds) and caches the answer: the binary must
   * exist and be able to create every namespace here. Never throws.
   */
  status(): SandboxStatus {
    const known = probed.get(this.binary);
    if (known) return known;
    const status = this.#probe();
    probed.set(this.binary, status);
    return status;
  }

  #probe(): SandboxStatus {
    const cp = childProcess();
    const base = ['--unshare-all', '--unshare-user', '--die-with-parent', '--cap-drop', 'ALL'];
    const probe = (extra: string[]) =>
      cp.spawnSync(this.binary, [...base, ...extra, '--ro-bind', '/', '/', 'true'], {
        timeout: 10_000,
        encoding: 'utf8',
      });
    let run = probe(['--disable-userns']);
    let disableUserns = run.status === 0;
    if (!disableUserns && !run.error) {
      run = probe([]);
      disableUserns = false;
    }
    if (run.error || run.status !== 0) {
      const why = run.error
        ? (run.error as NodeJS.ErrnoException).code === 'ENOENT'
          ? `${this.binary} not found`
          : `${this.binary} could not run: ${run.error.message}`
        : `${this.binary} cannot create namespaces here: ${(run.stderr || `exit ${run.status}`).trim().slice(0, 200)}`;
      return { available: false, backend: 'bubblewrap', binary: this.binary, reason: why, disableUserns };
    }
    const version = cp.spawnSync(this.binary, ['--version'], { encoding: 'utf8', timeout: 5000 });
    return {
      available: true,
      backend: 'bubblewrap',
      binary: this.binary,
      version: version.stdout?.trim() || 'bubblewrap',
      disableUserns,
    };
  }

  /** One line for warnings and `twinline doctor`. */
  describe(): string {
    const s = this.status();
    return s.available
      ? `${s.version} at ${s.binary}: commands run confined (read-only, workspace-write, network via the egress proxy)`
      : `no sandbox: ${s.reason}. Every shell command asks before it runs unconfined; plan mode and background agents refuse it`;
  }

  /** The program and arguments that run `argv` under `spec`. Call only when {@link status} is available. */
  wrap(spec: SandboxRunSpec, argv: readonly string[]): { file: string; args: string[] } {
    const plan = planSandbox({
      ...spec,
      etcDir: sandboxEtc(),
      disableUserns: this.status().disableUserns,
    });
    return { file: this.binary, args: [...bubblewrapArgs(plan), ...argv] };
  }
}

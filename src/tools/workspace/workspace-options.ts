import type { ToolPermissions } from '../spec.js';
import type { ProcessSandbox, SandboxOptions } from './sandbox/index.js';

/** Configuration of the workspace tool set. Every limit has a safe default. */
export interface WorkspaceToolOptions {
  /** Workspace root when the call context gives no `cwd` (default: `process.cwd()`). */
  readonly root?: string;
  /** Further directories the tools may touch (e.g. a shared docs folder). */
  readonly extraRoots?: readonly string[];
  /**
   * Paths `write_file` and `edit` never write, judged on the real target after symlinks (build it
   * with `protectedPathCheck(engineStatePaths(…))`): what the path is, or undefined. Beside the
   * gateway's lexical engine-state deny, this catches a symlink or a symlinked parent.
   */
  readonly protectedWrite?: (realPath: string) => string | undefined;
  /**
   * Paths the read tools (`read_file`, `list_directory`, `grep`, `glob`) never read, judged on the
   * real target (build it with `secretPathCheck(engineStatePaths(…))`): the engine's own data.
   */
  readonly protectedRead?: (realPath: string) => string | undefined;
  /** Overrides of the tools' permissions (default roles `developer`, `admin`; data level L1; category `workspace`). */
  readonly permissions?: Partial<ToolPermissions>;
  readonly read?: {
    /** Largest file `read_file` returns (bytes, default 256 KiB). */
    readonly maxBytes?: number;
  };
  readonly search?: {
    /** Matches `grep` returns at most (default 200). */
    readonly maxMatches?: number;
    /** Paths `glob` returns at most (default 1000). */
    readonly maxResults?: number;
    /** Files visited at most by one walk (default 20 000). */
    readonly maxFiles?: number;
    /** How long one `grep` may search before it is stopped (default 10 s). */
    readonly timeoutMs?: number;
    /** Directory names never descended into (default `.git`, `node_modules`, `.twinline`). */
    readonly ignoreDirs?: readonly string[];
  };
  readonly shell?: {
    /** Default timeout (ms, default 120 s); a call may ask for less or up to `maxTimeoutMs`. */
    readonly defaultTimeoutMs?: number;
    readonly maxTimeoutMs?: number;
    /** Bytes of stdout and of stderr kept each (default 64 KiB). */
    readonly maxOutputBytes?: number;
    /** Shell binary (default `/bin/sh`). */
    readonly shellPath?: string;
    /**
     * Environment of the child. By default only PATH, HOME, LANG, LC_ALL, TERM and TZ are passed
     * on, so secrets in the host's environment never reach a model-driven command.
     */
    readonly env?: Readonly<Record<string, string>>;
  };
  /**
   * The process sandbox of `shell` (docs/sandbox.md): options, or a sandbox to share (e.g. with
   * MCP servers). Default: bubblewrap at `/usr/bin/bwrap`, no extra read roots.
   */
  readonly sandbox?: SandboxOptions | ProcessSandbox;
  readonly fetch?: {
    readonly timeoutMs?: number;
    /** Body bytes kept at most (default 512 KiB). */
    readonly maxBytes?: number;
    /**
     * Allow hosts that resolve to loopback, private, link-local (cloud metadata) and similar
     * addresses. Off by default: a model must not reach internal services through `web_fetch`.
     */
    readonly allowPrivateNetwork?: boolean;
  };
}

/** Default permissions of the workspace tools. */
export const DEFAULT_WORKSPACE_PERMISSIONS: ToolPermissions = {
  allowedRoles: ['developer', 'admin'],
  requiredDataLevel: 'L1',
  category: 'workspace',
};

import { z } from 'zod';
import type { SandboxProfile } from '../../core/index.js';
import { commandSubject } from '../permission-subjects.js';
import type { ToolSpec } from '../spec.js';
import { type GroupRunResult, runInProcessGroup } from './process-group.js';
import { ProcessSandbox } from './sandbox/index.js';
import { workspacePermissions } from './workspace-manifest.js';
import type { WorkspaceToolOptions } from './workspace-options.js';
import { rootsFor } from './workspace-paths.js';

const input = z.strictObject({
  command: z.string().min(1).describe('Shell command, run with /bin/sh -c in the workspace root'),
  timeoutMs: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Time limit in milliseconds (capped by configuration)'),
  description: z.string().optional().describe('What the command does, in a few words (shown to approvers)'),
});

export interface ShellResult extends GroupRunResult {
  /** The sandbox profile the command ran under (docs/sandbox.md). */
  readonly sandbox: SandboxProfile;
}

/** Host variables passed to the child by default; everything else (tokens, keys, URLs) stays out. */
const PASSED_ENV = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TERM', 'TZ'];

/**
 * `shell`: a command in its own process group with a timeout, output caps and group-wide kill,
 * inside the process sandbox under the profile its approval granted (read-only when it ran
 * without an ask). Where no sandbox can be created it runs only when a person approved running
 * it unconfined; the approval stage asks for exactly that (see `sandbox` on the manifest).
 */
export function createShellTool(options: WorkspaceToolOptions): ToolSpec<z.infer<typeof input>, ShellResult> {
  const defaultTimeout = options.shell?.defaultTimeoutMs ?? 120_000;
  const maxTimeout = Math.max(defaultTimeout, options.shell?.maxTimeoutMs ?? 600_000);
  const maxOutputBytes = options.shell?.maxOutputBytes ?? 64 * 1024;
  const shellPath = options.shell?.shellPath ?? '/bin/sh';
  const sandbox =
    options.sandbox instanceof ProcessSandbox ? options.sandbox : new ProcessSandbox(options.sandbox);
  return {
    name: 'shell',
    description:
      'Run a shell command in the workspace root, inside a sandbox: read-only unless the command was approved to write; no network unless a web permission allows it. Returns exit code, stdout and stderr (capped). The command and every process it starts are killed on timeout.',
    inputSchema: input,
    annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
    riskLevel: 'medium',
    permissions: workspacePermissions(options),
    requiresReview: false,
    // The gateway's own deadline sits a little beyond the longest allowed run, so the tool's
    // timeout (which kills the group) fires first.
    timeoutMs: maxTimeout + 5_000,
    kind: 'shell',
    permissionSubject: commandSubject,
    sandbox,
    async execute(args, ctx) {
      const env: Record<string, string> = {};
      for (const key of PASSED_ENV) {
        const value = process.env[key];
        if (value !== undefined) env[key] = value;
      }
      Object.assign(env, options.shell?.env);
      const roots = rootsFor(options, ctx);
      const run = await sandbox.prepare(ctx.sandbox, roots, [shellPath, '-c', args.command], env);
      try {
        ctx.reportSandbox?.(run.profile);
        const result = await runInProcessGroup({
          argv: run.argv,
          cwd: roots.root,
          env: run.env,
          timeoutMs: Math.min(maxTimeout, args.timeoutMs ?? defaultTimeout),
          maxOutputBytes,
          signal: ctx.signal,
        });
        return { ...result, sandbox: run.profile };
      } finally {
        await run.release();
      }
    },
  };
}

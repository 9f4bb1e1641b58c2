import { z } from 'zod';
import type { ToolSpec } from '../spec.js';
import { type GroupRunResult, runInProcessGroup } from './process-group.js';
import { workspacePermissions } from './workspace-manifest.js';
import type { WorkspaceToolOptions } from './workspace-options.js';
import { rootsFor } from './workspace-paths.js';

const input = z.object({
  command: z.string().min(1).describe('Shell command, run with /bin/sh -c in the workspace root'),
  timeoutMs: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Time limit in milliseconds (capped by configuration)'),
  description: z.string().optional().describe('What the command does, in a few words (shown to approvers)'),
});

export type ShellResult = GroupRunResult;

/** Host variables passed to the child by default; everything else (tokens, keys, URLs) stays out. */
const PASSED_ENV = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TERM', 'TZ'];

/** `shell`: a command in its own process group with a timeout, output caps and group-wide kill. */
export function createShellTool(options: WorkspaceToolOptions): ToolSpec<z.infer<typeof input>, ShellResult> {
  const defaultTimeout = options.shell?.defaultTimeoutMs ?? 120_000;
  const maxTimeout = Math.max(defaultTimeout, options.shell?.maxTimeoutMs ?? 600_000);
  const maxOutputBytes = options.shell?.maxOutputBytes ?? 64 * 1024;
  const shellPath = options.shell?.shellPath ?? '/bin/sh';
  return {
    name: 'shell',
    description:
      'Run a shell command in the workspace root. Returns exit code, stdout and stderr (capped). The command and every process it starts are killed on timeout.',
    inputSchema: input,
    annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
    riskLevel: 'medium',
    permissions: workspacePermissions(options),
    requiresReview: false,
    // The gateway's own deadline sits a little beyond the longest allowed run, so the tool's
    // timeout (which kills the group) fires first.
    timeoutMs: maxTimeout + 5_000,
    kind: 'shell',
    async execute(args, ctx) {
      const env: Record<string, string> = {};
      for (const key of PASSED_ENV) {
        const value = process.env[key];
        if (value !== undefined) env[key] = value;
      }
      Object.assign(env, options.shell?.env);
      return runInProcessGroup({
        command: args.command,
        shellPath,
        cwd: rootsFor(options, ctx).root,
        env,
        timeoutMs: Math.min(maxTimeout, args.timeoutMs ?? defaultTimeout),
        maxOutputBytes,
        signal: ctx.signal,
      });
    },
  };
}

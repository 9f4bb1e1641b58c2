import { stat } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import type { ToolSpec } from '../spec.js';
import { WorkspaceToolError } from './errors.js';
import { walkFiles } from './file-walk.js';
import { GREP_WORKER_SOURCE } from './grep-worker-source.js';
import { workerThreads } from './lazy-builtins.js';
import { assertReadable } from './protected-paths.js';
import { fileReaderHeader } from './workspace-manifest.js';
import type { WorkspaceToolOptions } from './workspace-options.js';
import { displayPath, resolveInWorkspace, rootsFor } from './workspace-paths.js';

const input = z.strictObject({
  pattern: z.string().min(1).max(1000).describe('JavaScript regular expression searched line by line'),
  path: z.string().min(1).optional().describe('File or directory to search, default the workspace root'),
  glob: z.string().min(1).optional().describe('Only files whose path (relative to `path`) matches this glob'),
  ignoreCase: z.boolean().optional(),
  maxMatches: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Stop after this many matches (capped by configuration)'),
});

export interface GrepMatch {
  /** Relative to the workspace root. */
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

export interface GrepResult {
  readonly matches: GrepMatch[];
  /** True when the match cap stopped the search. */
  readonly truncated: boolean;
  readonly filesScanned: number;
}

interface WorkerReply {
  matches: { file: string; line: number; text: string }[];
  truncated: boolean;
  filesScanned: number;
}

/** `grep`: regex search over workspace files, with a match cap and a time limit. */
export function createGrepTool(options: WorkspaceToolOptions): ToolSpec<z.infer<typeof input>, GrepResult> {
  const cap = options.search?.maxMatches ?? 200;
  const ignoreDirs = new Set(options.search?.ignoreDirs ?? ['.git', 'node_modules', '.twinline']);
  const maxFiles = options.search?.maxFiles ?? 20_000;
  const timeoutMs = options.search?.timeoutMs ?? 10_000;
  return {
    name: 'grep',
    description:
      'Search workspace files for lines matching a regular expression. Returns file, line number and line text.',
    inputSchema: input,
    ...fileReaderHeader(options, timeoutMs + 5_000),
    async execute(args, ctx) {
      const roots = rootsFor(options, ctx);
      const flags = args.ignoreCase ? 'iu' : 'u';
      try {
        new RegExp(args.pattern, flags);
      } catch (error) {
        throw new WorkspaceToolError(
          'workspace.invalid-regex',
          `invalid pattern: ${(error as Error).message}`,
          'grep',
        );
      }
      const base = await resolveInWorkspace(args.path ?? '.', roots, 'grep');
      assertReadable(base, args.path ?? '.', options.protectedRead, 'grep');
      const filter = args.glob ? picomatch(args.glob, { dot: true }) : undefined;
      const files: string[] = [];
      if ((await stat(base)).isFile()) {
        files.push(base);
      } else {
        for await (const file of walkFiles(base, { ignoreDirs, maxFiles, signal: ctx.signal })) {
          if (!filter || filter(relative(base, file).split(sep).join('/'))) files.push(file);
        }
      }
      const reply = await searchInWorker(
        {
          files,
          source: args.pattern,
          flags,
          maxMatches: Math.min(cap, args.maxMatches ?? cap),
          maxFileBytes: 2 * 1024 * 1024,
          maxLineChars: 500,
        },
        timeoutMs,
        ctx.signal,
      );
      return {
        matches: reply.matches.map((m) => ({ ...m, file: displayPath(roots, m.file) })),
        truncated: reply.truncated,
        filesScanned: reply.filesScanned,
      };
    },
  };
}

function searchInWorker(
  data: Record<string, unknown>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<WorkerReply> {
  return new Promise((resolve, reject) => {
    const { Worker } = workerThreads();
    const worker = new Worker(GREP_WORKER_SOURCE, { eval: true, workerData: data });
    const stop = (error: Error) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      reject(error);
    };
    const onAbort = () => stop(new WorkspaceToolError('workspace.aborted', 'search aborted', 'grep'));
    const timer = setTimeout(
      () => stop(new WorkspaceToolError('workspace.grep-timeout', `search exceeded ${timeoutMs} ms`, 'grep')),
      timeoutMs,
    );
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    worker.once('message', (reply: WorkerReply) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      resolve(reply);
    });
    worker.once('error', (error) => stop(error));
  });
}

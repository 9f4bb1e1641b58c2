import { relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import type { ToolSpec } from '../spec.js';
import { walkFiles } from './file-walk.js';
import { assertReadable } from './protected-paths.js';
import { fileReaderHeader } from './workspace-manifest.js';
import type { WorkspaceToolOptions } from './workspace-options.js';
import { displayPath, resolveInWorkspace, rootsFor } from './workspace-paths.js';

const input = z.strictObject({
  pattern: z.string().min(1).describe('Glob, e.g. "src/**/*.ts", matched against paths relative to `path`'),
  path: z.string().min(1).optional().describe('Directory to search from, default the workspace root'),
});

export interface GlobResult {
  /** Matching files, relative to the workspace root, sorted. */
  readonly matches: string[];
  readonly truncated: boolean;
}

/** `glob`: files whose path matches a glob pattern. */
export function createGlobTool(options: WorkspaceToolOptions): ToolSpec<z.infer<typeof input>, GlobResult> {
  const maxResults = options.search?.maxResults ?? 1000;
  const ignoreDirs = new Set(options.search?.ignoreDirs ?? ['.git', 'node_modules', '.twinline']);
  const maxFiles = options.search?.maxFiles ?? 20_000;
  return {
    name: 'glob',
    description: 'Find files in the workspace whose path matches a glob pattern (e.g. "**/*.md").',
    inputSchema: input,
    ...fileReaderHeader(options),
    async execute(args, ctx) {
      const roots = rootsFor(options, ctx);
      const base = await resolveInWorkspace(args.path ?? '.', roots, 'glob');
      assertReadable(base, args.path ?? '.', options.protectedRead, 'glob');
      const isMatch = picomatch(args.pattern, { dot: true });
      const matches: string[] = [];
      let truncated = false;
      for await (const file of walkFiles(base, { ignoreDirs, maxFiles, signal: ctx.signal })) {
        if (!isMatch(relative(base, file).split(sep).join('/'))) continue;
        if (matches.length >= maxResults) {
          truncated = true;
          break;
        }
        matches.push(displayPath(roots, file));
      }
      return { matches: matches.sort(), truncated };
    },
  };
}

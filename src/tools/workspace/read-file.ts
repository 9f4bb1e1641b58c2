import { open } from 'node:fs/promises';
import { z } from 'zod';
import type { ToolSpec } from '../spec.js';
import { WorkspaceToolError } from './errors.js';
import { assertReadable } from './protected-paths.js';
import { fileReaderHeader } from './workspace-manifest.js';
import type { WorkspaceToolOptions } from './workspace-options.js';
import { displayPath, resolveInWorkspace, rootsFor } from './workspace-paths.js';

const input = z.strictObject({
  path: z.string().min(1).describe('File path, relative to the workspace root or absolute inside it'),
  offset: z.number().int().min(1).optional().describe('First line to return (1-based)'),
  limit: z.number().int().min(1).max(100_000).optional().describe('Number of lines to return'),
});

export interface ReadFileResult {
  readonly path: string;
  readonly content: string;
  /** Line number of the first returned line. */
  readonly startLine: number;
  readonly totalLines: number;
  /** True when the file was larger than the byte cap or the line window cut it. */
  readonly truncated: boolean;
}

/** `read_file`: a text file (or a window of its lines), capped in size; binary files are refused. */
export function createReadFileTool(
  options: WorkspaceToolOptions,
): ToolSpec<z.infer<typeof input>, ReadFileResult> {
  const maxBytes = options.read?.maxBytes ?? 256 * 1024;
  return {
    name: 'read_file',
    description: 'Read a text file from the workspace. Optional offset/limit select a window of lines.',
    inputSchema: input,
    ...fileReaderHeader(options),
    async execute(args, ctx) {
      const roots = rootsFor(options, ctx);
      const path = await resolveInWorkspace(args.path, roots, 'read_file');
      assertReadable(path, args.path, options.protectedRead, 'read_file');
      const handle = await open(path, 'r');
      let bytes: Buffer;
      let cut = false;
      try {
        const stat = await handle.stat();
        if (!stat.isFile())
          throw new WorkspaceToolError('workspace.not-a-file', `${args.path} is not a file`, 'read_file');
        const size = Math.min(stat.size, maxBytes);
        bytes = Buffer.alloc(size);
        const { bytesRead } = await handle.read(bytes, 0, size, 0);
        bytes = bytes.subarray(0, bytesRead);
        cut = stat.size > maxBytes;
      } finally {
        await handle.close();
      }
      if (bytes.includes(0)) {
        throw new WorkspaceToolError('workspace.binary-file', `${args.path} is a binary file`, 'read_file');
      }
      const lines = bytes.toString('utf8').split('\n');
      const start = args.offset ?? 1;
      const end = args.limit !== undefined ? start - 1 + args.limit : lines.length;
      const window = lines.slice(start - 1, end);
      return {
        path: displayPath(roots, path),
        content: window.join('\n'),
        startLine: start,
        totalLines: lines.length,
        truncated: cut || end < lines.length,
      };
    },
  };
}

import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { ToolSpec } from '../spec.js';
import { assertWritable } from './protected-paths.js';
import { fileWriterHeader } from './workspace-manifest.js';
import type { WorkspaceToolOptions } from './workspace-options.js';
import { displayPath, resolveInWorkspace, rootsFor } from './workspace-paths.js';

const input = z.strictObject({
  path: z.string().min(1).describe('File path, relative to the workspace root or absolute inside it'),
  content: z.string().describe('The complete new content of the file'),
});

export interface WriteFileResult {
  readonly path: string;
  readonly bytes: number;
  readonly created: boolean;
}

/** `write_file`: creates or overwrites a file (parent directories created) inside the workspace. */
export function createWriteFileTool(
  options: WorkspaceToolOptions,
): ToolSpec<z.infer<typeof input>, WriteFileResult> {
  return {
    name: 'write_file',
    description: 'Create or overwrite a file in the workspace with the given content.',
    inputSchema: input,
    ...fileWriterHeader(options, { readOnly: false, destructive: true, idempotent: true, openWorld: false }),
    async execute(args, ctx) {
      const roots = rootsFor(options, ctx);
      const path = await resolveInWorkspace(args.path, roots, 'write_file');
      assertWritable(path, args.path, options.protectedWrite, 'write_file');
      const existed = await stat(path).then(
        () => true,
        () => false,
      );
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, args.content, 'utf8');
      return { path: displayPath(roots, path), bytes: Buffer.byteLength(args.content), created: !existed };
    },
  };
}

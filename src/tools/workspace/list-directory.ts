import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { ToolSpec } from '../spec.js';
import { assertReadable } from './protected-paths.js';
import { fileReaderHeader } from './workspace-manifest.js';
import type { WorkspaceToolOptions } from './workspace-options.js';
import { displayPath, resolveInWorkspace, rootsFor } from './workspace-paths.js';

const input = z.strictObject({
  path: z.string().min(1).optional().describe('Directory, default the workspace root'),
});

export interface DirectoryEntry {
  readonly name: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  readonly size: number;
}

export interface ListDirectoryResult {
  readonly path: string;
  readonly entries: DirectoryEntry[];
  readonly truncated: boolean;
}

const MAX_ENTRIES = 1000;

/** `list_directory`: the entries of one directory, directories first, then by name. */
export function createListDirectoryTool(
  options: WorkspaceToolOptions,
): ToolSpec<z.infer<typeof input>, ListDirectoryResult> {
  return {
    name: 'list_directory',
    description: 'List the files and subdirectories of a workspace directory.',
    inputSchema: input,
    ...fileReaderHeader(options),
    async execute(args, ctx) {
      const roots = rootsFor(options, ctx);
      const dir = await resolveInWorkspace(args.path ?? '.', roots, 'list_directory');
      assertReadable(dir, args.path ?? '.', options.protectedRead, 'list_directory');
      const names = (await readdir(dir)).sort();
      const entries: DirectoryEntry[] = [];
      for (const name of names.slice(0, MAX_ENTRIES)) {
        const s = await lstat(join(dir, name)).catch(() => undefined);
        if (!s) continue;
        const type = s.isSymbolicLink()
          ? 'symlink'
          : s.isDirectory()
            ? 'directory'
            : s.isFile()
              ? 'file'
              : 'other';
        entries.push({ name, type, size: s.isFile() ? s.size : 0 });
      }
      entries.sort(
        (a, b) =>
          Number(b.type === 'directory') - Number(a.type === 'directory') || (a.name < b.name ? -1 : 1),
      );
      return { path: displayPath(roots, dir), entries, truncated: names.length > MAX_ENTRIES };
    },
  };
}

import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import type { ToolSpec } from '../spec.js';
import { WorkspaceToolError } from './errors.js';
import { assertWritable } from './protected-paths.js';
import { fileWriterHeader } from './workspace-manifest.js';
import type { WorkspaceToolOptions } from './workspace-options.js';
import { displayPath, resolveInWorkspace, rootsFor } from './workspace-paths.js';

const input = z.strictObject({
  path: z.string().min(1).describe('File to edit'),
  oldString: z.string().min(1).describe('Exact text to replace; must occur exactly once unless replaceAll'),
  newString: z.string().describe('Replacement text'),
  replaceAll: z.boolean().optional().describe('Replace every occurrence instead of requiring a unique one'),
});

export interface EditResult {
  readonly path: string;
  readonly replacements: number;
}

/** Occurrences of `needle` in `text`, non-overlapping. Pure. */
export function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

/** `edit`: exact text replacement; the old text must match exactly once (or `replaceAll`). */
export function createEditTool(options: WorkspaceToolOptions): ToolSpec<z.infer<typeof input>, EditResult> {
  return {
    name: 'edit',
    description:
      'Replace exact text in a file. oldString must appear exactly once (include surrounding lines to make it unique) unless replaceAll is true.',
    inputSchema: input,
    ...fileWriterHeader(options, {
      readOnly: false,
      destructive: false,
      idempotent: false,
      openWorld: false,
    }),
    async execute(args, ctx) {
      const roots = rootsFor(options, ctx);
      const path = await resolveInWorkspace(args.path, roots, 'edit');
      assertWritable(path, args.path, options.protectedWrite, 'edit');
      if (args.oldString === args.newString) {
        throw new WorkspaceToolError(
          'workspace.edit-no-change',
          'oldString and newString are identical',
          'edit',
        );
      }
      const text = await readFile(path, 'utf8');
      const count = countOccurrences(text, args.oldString);
      if (count === 0) {
        throw new WorkspaceToolError(
          'workspace.edit-no-match',
          `oldString not found in ${args.path}`,
          'edit',
        );
      }
      if (count > 1 && !args.replaceAll) {
        throw new WorkspaceToolError(
          'workspace.edit-ambiguous',
          `oldString occurs ${count} times in ${args.path}; add context to make it unique or set replaceAll`,
          'edit',
          { occurrences: count },
        );
      }
      // split/join replaces literally: no `$&`-style patterns from the model are interpreted.
      const updated = text.split(args.oldString).join(args.newString);
      await writeFile(path, updated, 'utf8');
      return { path: displayPath(roots, path), replacements: count };
    },
  };
}

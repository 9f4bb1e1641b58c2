import { realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { ToolSpec } from '../tools/index.js';
import type { SeededFile } from './schemas.js';

interface CachedFile {
  readonly content: string;
  readonly mtime: number | undefined;
}

function canonical(path: string, cwd: string): string {
  const abs = isAbsolute(path) ? path : resolve(cwd, path);
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}

/**
 * Files the host already read (`seed_read_state`), served to `read_file` without touching the
 * disk again. An entry is used only while the file on disk is not newer than the seeded mtime;
 * entries without content (Claude's `{ path, mtime }` form) only record that the host saw the file.
 * The wrapped tool still resolves the path first, so the cache never widens what may be read.
 */
export class ReadCache {
  private readonly files = new Map<string, CachedFile>();

  constructor(private readonly cwd: string) {}

  get size(): number {
    return this.files.size;
  }

  seed(files: readonly SeededFile[]): void {
    for (const f of files) {
      if (f.content === undefined) continue;
      this.files.set(canonical(f.path, this.cwd), { content: f.content, mtime: f.mtime });
    }
  }

  /** The cached content of an absolute, resolved path if it is still fresh. */
  async lookup(realPath: string): Promise<string | undefined> {
    const hit = this.files.get(realPath);
    if (!hit) return undefined;
    if (hit.mtime === undefined) return hit.content;
    try {
      const s = await stat(realPath);
      if (Math.floor(s.mtimeMs) <= hit.mtime) return hit.content;
    } catch {
      // gone or unreadable: let the tool report it
    }
    this.files.delete(realPath);
    return undefined;
  }
}

interface ReadArgs {
  readonly path: string;
  readonly offset?: number;
  readonly limit?: number;
}

/**
 * `read_file` consulting the cache. `resolvePath` is the workspace tool's own resolver (it refuses
 * paths outside the workspace); `display` renders the path as the tool would.
 */
export function withReadCache(
  tool: ToolSpec<ReadArgs, unknown>,
  cache: ReadCache,
  resolvePath: (path: string, cwd: string | undefined) => Promise<string>,
  display: (real: string, cwd: string | undefined) => string,
): ToolSpec<ReadArgs, unknown> {
  return {
    ...tool,
    async execute(args, ctx) {
      if (cache.size > 0) {
        const real = await resolvePath(args.path, ctx.cwd);
        const content = await cache.lookup(real);
        if (content !== undefined) {
          const lines = content.split('\n');
          const start = args.offset ?? 1;
          const end = args.limit !== undefined ? start - 1 + args.limit : lines.length;
          return {
            path: display(real, ctx.cwd),
            content: lines.slice(start - 1, end).join('\n'),
            startLine: start,
            totalLines: lines.length,
            truncated: end < lines.length,
          };
        }
      }
      return tool.execute(args, ctx);
    },
  };
}

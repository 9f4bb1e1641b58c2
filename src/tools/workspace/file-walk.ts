import { opendir } from 'node:fs/promises';
import { join } from 'node:path';

export interface WalkLimits {
  /** Directory names never entered. */
  readonly ignoreDirs: ReadonlySet<string>;
  /** Files yielded at most. */
  readonly maxFiles: number;
  readonly signal?: AbortSignal;
}

/**
 * Regular files under `dir`, depth first. Symbolic links are not followed — a link could lead
 * out of the workspace or into a cycle — so every yielded path is really under `dir`.
 */
export async function* walkFiles(dir: string, limits: WalkLimits): AsyncGenerator<string> {
  let yielded = 0;
  const stack = [dir];
  while (stack.length > 0) {
    limits.signal?.throwIfAborted();
    const current = stack.pop()!;
    let handle: Awaited<ReturnType<typeof opendir>>;
    try {
      handle = await opendir(current);
    } catch {
      continue;
    }
    const subdirs: string[] = [];
    for await (const entry of handle) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (!limits.ignoreDirs.has(entry.name)) subdirs.push(path);
      } else if (entry.isFile()) {
        yield path;
        if (++yielded >= limits.maxFiles) return;
      }
    }
    stack.push(...subdirs.sort().reverse());
  }
}

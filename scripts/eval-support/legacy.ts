/**
 * The "old figures": the router and the injection scanner as they were before the learned
 * scorers (commit LEGACY_COMMIT), loaded from git into a scratch folder, so every evaluation set
 * — including sealed sets delivered later — is measured with the old code beside the new.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The last commit before the learned router and injection scorer. */
export const LEGACY_COMMIT = 'b74039a';

const ROOT = resolve(import.meta.dirname, '../..');

function legacyTree(): string | undefined {
  const dir = resolve(ROOT, 'node_modules/.cache/twinline-legacy', LEGACY_COMMIT);
  if (existsSync(resolve(dir, 'src/router/index.ts'))) return dir;
  try {
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['-C', ROOT, 'archive', LEGACY_COMMIT, 'src'], {
      maxBuffer: 256 * 1024 * 1024,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    return dir;
  } catch (err) {
    process.stderr.write(
      `old figures unavailable (git archive ${LEGACY_COMMIT}: ${(err as Error).message})\n`,
    );
    return undefined;
  }
}

export interface LegacyScanner {
  scanText(
    text: string,
    options: { channel: 'user_input' | 'tool_output' },
  ): { verdict: string; score: number };
}
export interface LegacyRouter {
  route(query: string): { target: string; scores: { deep: number; quick: number } };
}

export async function legacyScanner(): Promise<LegacyScanner | undefined> {
  const dir = legacyTree();
  return dir
    ? ((await import(pathToFileURL(resolve(dir, 'src/gates/input/index.ts')).href)) as LegacyScanner)
    : undefined;
}

export async function legacyRouter(): Promise<LegacyRouter | undefined> {
  const dir = legacyTree();
  return dir
    ? ((await import(pathToFileURL(resolve(dir, 'src/router/index.ts')).href)) as LegacyRouter)
    : undefined;
}

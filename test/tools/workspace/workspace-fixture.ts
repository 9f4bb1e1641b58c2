import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolExecutionContext } from '../../../src/tools/index.js';

/** A real temporary directory per test file, with a workspace and an "outside" sibling. */
export function makeSandbox(): { base: string; workspace: string; outside: string; remove: () => void } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'twinline-ws-')));
  const workspace = join(base, 'workspace');
  const outside = join(base, 'outside');
  return { base, workspace, outside, remove: () => rmSync(base, { recursive: true, force: true }) };
}

/** A call context as trusted runtime code would build it. */
export function context(
  cwd?: string,
  signal: AbortSignal = new AbortController().signal,
): ToolExecutionContext {
  return {
    identity: { tenant: 't', user: 'dev', roles: ['developer'], dataLevel: 'L1', attributes: {} },
    sessionId: 's',
    callId: 'c',
    signal,
    ...(cwd ? { cwd } : {}),
  };
}

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every use of `pattern` in src/, as `file:line`, outside the files that may use it. */
function usesOutside(pattern: RegExp, allowed: (file: string) => boolean): string[] {
  const hits: string[] = [];
  for (const file of sources(SRC)) {
    const rel = relative(SRC, file);
    if (allowed(rel)) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (pattern.test(line) && !/^\s*(\*|\/\/)/.test(line)) hits.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
  }
  return hits;
}

/** Where each layer's stage is defined (and exported), and so may be named. */
const STAGE_HOMES: Readonly<Record<string, RegExp>> = {
  createAccessStage: /^access\//,
  createApprovalStage: /^access\//,
  createPolicyStage: /^policy\//,
  createParameterStage: /^policy\//,
  createIntentStage: /^policy\//,
  createRateLimitStage: /^resilience\//,
  createBreakerStage: /^resilience\//,
  createQuotingStage: /^gates\//,
  createRedactionStage: /^gates\//,
  rbacStage: /^gateway\//,
  schemaStage: /^gateway\//,
  reviewStage: /^gateway\//,
};

describe('one composition root', () => {
  it('no code outside src/pipeline builds a ToolGateway', () => {
    expect(usesOutside(/new ToolGateway\s*\(/, (f) => f.startsWith('pipeline/'))).toEqual([]);
  });

  it.each(Object.entries(STAGE_HOMES))('%s is used only by its own layer and the pipeline', (name, home) => {
    const pattern = new RegExp(`\\b${name}\\b`);
    expect(usesOutside(pattern, (f) => f.startsWith('pipeline/') || home.test(f))).toEqual([]);
  });

  it('no layer assembles a stage list: stage order lives only in the pipeline', () => {
    expect(usesOutside(/\bstages:\s*\[|insertStage|STAGE_ORDER/, (f) => f.startsWith('pipeline/'))).toEqual(
      [],
    );
  });
});

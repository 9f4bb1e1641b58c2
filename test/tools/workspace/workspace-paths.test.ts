import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWithin, resolveInWorkspace, WorkspacePathError } from '../../../src/tools/workspace/index.js';
import { makeSandbox } from './workspace-fixture.js';

const box = makeSandbox();
const roots = { root: box.workspace, extra: [] };

beforeAll(() => {
  mkdirSync(join(box.workspace, 'a', 'b'), { recursive: true });
  mkdirSync(box.outside, { recursive: true });
  symlinkSync(box.outside, join(box.workspace, 'a', 'out'));
  symlinkSync(join(box.workspace, 'a', 'b'), join(box.workspace, 'inner'));
});
afterAll(() => box.remove());

describe('isWithin', () => {
  it.each([
    ['/w', '/w', true],
    ['/w', '/w/x', true],
    ['/w', '/w/x/../y', true],
    ['/w', '/wx', false],
    ['/w', '/', false],
    ['/w', '/w/..', false],
    ['/w/a', '/w/a..b', false],
    ['/w', '/w/..x', true],
  ])('isWithin(%s, %s) = %s', (root, candidate, expected) => {
    expect(isWithin(root, join(candidate))).toBe(expected);
  });
});

describe('resolveInWorkspace', () => {
  it('never returns a path outside the root, whatever segments the model sends', async () => {
    const segment = fc.constantFrom('..', '.', 'a', 'b', 'out', 'inner', 'new', '', '/');
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 8 }), async (parts) => {
        const input = parts.join('/') || '.';
        try {
          const real = await resolveInWorkspace(input, roots, 'test');
          expect(isWithin(box.workspace, real)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(WorkspacePathError);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('follows an inside symlink but refuses one that leads out', async () => {
    expect(await resolveInWorkspace('inner/x.txt', roots, 'test')).toBe(
      join(box.workspace, 'a', 'b', 'x.txt'),
    );
    await expect(resolveInWorkspace('a/out/x.txt', roots, 'test')).rejects.toBeInstanceOf(WorkspacePathError);
    await expect(resolveInWorkspace('bad\0name', roots, 'test')).rejects.toBeInstanceOf(WorkspacePathError);
  });
});

import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findManifestViolation, type ToolSpec } from '../../../src/tools/index.js';
import {
  createWorkspaceTools,
  WorkspacePathError,
  WorkspaceToolError,
} from '../../../src/tools/workspace/index.js';
import { context, makeSandbox } from './workspace-fixture.js';

const box = makeSandbox();
const tools = new Map<string, ToolSpec>(
  createWorkspaceTools({ root: box.workspace }).map((t) => [t.name, t]),
);
const run = (name: string, args: unknown, cwd?: string) => {
  const tool = tools.get(name)!;
  return tool.execute(tool.inputSchema.parse(args), context(cwd));
};

beforeAll(() => {
  mkdirSync(join(box.workspace, 'src', 'deep'), { recursive: true });
  mkdirSync(join(box.workspace, 'node_modules', 'pkg'), { recursive: true });
  mkdirSync(box.outside, { recursive: true });
  writeFileSync(join(box.workspace, 'notes.md'), 'line one\nline two\nline three\n');
  writeFileSync(join(box.workspace, 'src', 'a.ts'), 'export const a = 1;\nexport const TODO = 2;\n');
  writeFileSync(join(box.workspace, 'src', 'deep', 'b.ts'), 'const b = "todo";\n');
  writeFileSync(join(box.workspace, 'node_modules', 'pkg', 'index.ts'), 'TODO hidden\n');
  writeFileSync(join(box.workspace, 'blob.bin'), Buffer.from([1, 0, 2, 3]));
  writeFileSync(join(box.outside, 'secret.txt'), 'top secret\n');
  symlinkSync(box.outside, join(box.workspace, 'link-out'));
  symlinkSync(join(box.outside, 'missing.txt'), join(box.workspace, 'dangling'));
});
afterAll(() => box.remove());

describe('workspace tool manifests', () => {
  it('every tool passes the registration rules with the expected kind and risk', () => {
    const expected: Record<string, [string, string, boolean]> = {
      read_file: ['read', 'low', true],
      list_directory: ['read', 'low', true],
      glob: ['read', 'low', true],
      grep: ['read', 'low', true],
      write_file: ['edit', 'medium', false],
      edit: ['edit', 'medium', false],
      shell: ['shell', 'medium', false],
      web_fetch: ['fetch', 'medium', true],
    };
    expect([...tools.keys()].sort()).toEqual(Object.keys(expected).sort());
    for (const [name, tool] of tools) {
      expect(findManifestViolation(tool), name).toBeUndefined();
      const [kind, risk, concurrent] = expected[name]!;
      expect([tool.kind, tool.riskLevel, tool.concurrencySafe === true], name).toEqual([
        kind,
        risk,
        concurrent,
      ]);
    }
    expect(tools.get('web_fetch')?.thirdPartyFields).toEqual(['body']);
  });
});

describe('path confinement', () => {
  it.each([
    ['read_file', { path: '../outside/secret.txt' }],
    ['read_file', { path: 'src/../../outside/secret.txt' }],
    ['read_file', { path: '/etc/passwd' }],
    ['read_file', { path: 'link-out/secret.txt' }],
    ['write_file', { path: 'link-out/new.txt', content: 'x' }],
    ['write_file', { path: 'dangling', content: 'x' }],
    ['write_file', { path: '../escape.txt', content: 'x' }],
    ['edit', { path: 'link-out/secret.txt', oldString: 'top', newString: 'bottom' }],
    ['list_directory', { path: 'link-out' }],
    ['glob', { pattern: '**', path: '..' }],
    ['grep', { pattern: 'secret', path: 'link-out' }],
  ])('%s %j is refused with a typed error naming the path', async (name, args) => {
    const error = await run(name, args).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkspacePathError);
    expect((error as WorkspacePathError).path).toBe((args as { path: string }).path);
    expect((error as Error).message).toContain((args as { path: string }).path);
  });

  it('allows extra roots when configured', async () => {
    const withExtra = createWorkspaceTools({ root: box.workspace, extraRoots: [box.outside] });
    const read = withExtra.find((t) => t.name === 'read_file')!;
    const result = (await read.execute({ path: 'link-out/secret.txt' }, context())) as { content: string };
    expect(result.content).toBe('top secret\n');
  });

  it('uses the context cwd as the workspace root', async () => {
    const result = (await run('read_file', { path: 'a.ts' }, join(box.workspace, 'src'))) as {
      content: string;
    };
    expect(result.content).toContain('export const a');
    await expect(
      run('read_file', { path: '../notes.md' }, join(box.workspace, 'src')),
    ).rejects.toBeInstanceOf(WorkspacePathError);
  });
});

describe('read_file / write_file / edit', () => {
  it('reads a whole file or a window of lines', async () => {
    expect(await run('read_file', { path: 'notes.md' })).toMatchObject({
      path: 'notes.md',
      content: 'line one\nline two\nline three\n',
      truncated: false,
    });
    expect(await run('read_file', { path: 'notes.md', offset: 2, limit: 1 })).toMatchObject({
      content: 'line two',
      startLine: 2,
      truncated: true,
    });
  });

  it('refuses binary files and directories', async () => {
    await expect(run('read_file', { path: 'blob.bin' })).rejects.toMatchObject({
      code: 'workspace.binary-file',
    });
    await expect(run('read_file', { path: 'src' })).rejects.toMatchObject({ code: 'workspace.not-a-file' });
  });

  it('writes new files with parent directories and overwrites existing ones', async () => {
    expect(await run('write_file', { path: 'out/new/file.txt', content: 'héllo' })).toEqual({
      path: join('out', 'new', 'file.txt'),
      bytes: 6,
      created: true,
    });
    expect(await run('write_file', { path: 'out/new/file.txt', content: 'again' })).toMatchObject({
      created: false,
    });
    expect(readFileSync(join(box.workspace, 'out/new/file.txt'), 'utf8')).toBe('again');
  });

  it('edits an exact, unique match and refuses missing or ambiguous ones', async () => {
    const file = join(box.workspace, 'edit.txt');
    writeFileSync(file, 'alpha beta\nalpha gamma\n$& stays\n');
    await expect(run('edit', { path: 'edit.txt', oldString: 'alpha', newString: 'x' })).rejects.toMatchObject(
      {
        code: 'workspace.edit-ambiguous',
        details: { occurrences: 2 },
      },
    );
    await expect(run('edit', { path: 'edit.txt', oldString: 'delta', newString: 'x' })).rejects.toMatchObject(
      {
        code: 'workspace.edit-no-match',
      },
    );
    await expect(
      run('edit', { path: 'edit.txt', oldString: 'beta', newString: 'beta' }),
    ).rejects.toBeInstanceOf(WorkspaceToolError);
    expect(await run('edit', { path: 'edit.txt', oldString: 'alpha beta', newString: 'omega $&' })).toEqual({
      path: 'edit.txt',
      replacements: 1,
    });
    expect(
      await run('edit', { path: 'edit.txt', oldString: '$&', newString: '$1', replaceAll: true }),
    ).toEqual({
      path: 'edit.txt',
      replacements: 2,
    });
    expect(readFileSync(file, 'utf8')).toBe('omega $1\nalpha gamma\n$1 stays\n');
  });
});

describe('list_directory / glob / grep', () => {
  it('lists a directory, directories first', async () => {
    const result = (await run('list_directory', {})) as { entries: { name: string; type: string }[] };
    const names = result.entries.map((e) => `${e.type}:${e.name}`);
    const firstFile = names.findIndex((n) => !n.startsWith('directory:'));
    expect(names.slice(0, firstFile)).toContain('directory:src');
    expect(names.slice(firstFile).some((n) => n.startsWith('directory:'))).toBe(false);
    expect(names).toContain('symlink:link-out');
    expect(names).toContain('file:notes.md');
  });

  it('globs files without following links or entering ignored directories', async () => {
    expect(await run('glob', { pattern: '**/*.ts' })).toEqual({
      matches: [join('src', 'a.ts'), join('src', 'deep', 'b.ts')],
      truncated: false,
    });
    expect(await run('glob', { pattern: '*.ts', path: 'src' })).toEqual({
      matches: [join('src', 'a.ts')],
      truncated: false,
    });
  });

  it('greps with a regex, case folding, a glob filter and a match cap', async () => {
    const strict = (await run('grep', { pattern: 'TODO' })) as { matches: { file: string; line: number }[] };
    expect(strict.matches).toEqual([{ file: join('src', 'a.ts'), line: 2, text: 'export const TODO = 2;' }]);
    const folded = (await run('grep', { pattern: 'todo', ignoreCase: true })) as { matches: unknown[] };
    expect(folded.matches).toHaveLength(2);
    const filtered = (await run('grep', {
      pattern: 'todo',
      ignoreCase: true,
      glob: 'deep/**',
      path: 'src',
    })) as {
      matches: { file: string }[];
    };
    expect(filtered.matches.map((m) => m.file)).toEqual([join('src', 'deep', 'b.ts')]);
    expect(await run('grep', { pattern: 'line', path: 'notes.md', maxMatches: 2 })).toMatchObject({
      truncated: true,
      matches: [{ line: 1 }, { line: 2 }],
    });
  });

  it('refuses an invalid regex and stops a catastrophic one at the time limit', async () => {
    await expect(run('grep', { pattern: '(' })).rejects.toMatchObject({ code: 'workspace.invalid-regex' });
    writeFileSync(join(box.workspace, 'redos.txt'), `${'a'.repeat(40)}!\n`);
    // 2^40 backtracking steps: only the time limit can end this search.
    const impatient = createWorkspaceTools({ root: box.workspace, search: { timeoutMs: 1000 } }).find(
      (t) => t.name === 'grep',
    )!;
    await expect(
      impatient.execute({ pattern: '^(a+)+$', path: 'redos.txt' }, context()),
    ).rejects.toMatchObject({
      code: 'workspace.grep-timeout',
    });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDestructiveShell, splitShellCommand } from '../../src/access/index.js';
import {
  executableVariants,
  pathArgumentsOf,
  readToolHazard,
  sedScriptHazard,
} from '../../src/access/shell-hazards.js';
import { approve, ROOTS, ruleEffect } from './fixtures.js';

/** What the approval stage decides for a shell line in a mode, with optional rules. */
const verdict = (mode: Parameters<typeof approve>[0], command: string, rules = {}) =>
  approve(mode, 'shell', { command }, rules).verdict;

describe('read tools that write, execute or read elsewhere are not read-only', () => {
  // Every line here ran without an ask before: they must ask in default and be refused in plan.
  const lines = [
    "sed -n '1e id > FILE' README.md",
    "sed 's/.*/touch X/e' README.md",
    "sed -n 'w FILE' README.md",
    "sed -n 's/a/b/w FILE' README.md",
    'sed -n -e p -e "r /etc/passwd" README.md',
    'sed -f script.sed README.md',
    "git grep -O'touch X; true' word",
    'git grep --open-files-in-pager=touch word',
    "LESSOPEN='|touch X; cat %s' less README.md",
    'less -o log.txt README.md',
    'sort -oFILE README.md',
    'sort -no FILE README.md',
    'sort --compress-program=sh README.md',
    'git diff --no-index --output=FILE a b',
    'git diff --no-index /etc/passwd README.md',
    'git -c core.pager=sh log -1',
    'git -C /etc log -1',
    'cat ~/.bashrc',
    'cat ~root/.profile',
    'diff --from-file=/etc/passwd x',
    'head -n1 ../outside/secret.txt',
    'XDG_CONFIG_HOME=/tmp/x git status',
    'rg --pre ./run.sh word',
    'uniq a.txt b.txt',
    'tree -o out.txt',
    'echo $HOME',
    'cat $(echo README.md)',
    '/bin/cat README.md',
  ];
  it.each(lines)('%s: asks in default, denied in plan', (command) => {
    expect(verdict('default', command)).toBe('ask');
    expect(verdict('plan', command)).toBe('deny');
  });

  it.each([
    'cat README.md',
    'git log -1',
    'git status --short',
    "sed -n '1,5p' README.md",
    "sed -e 's/a/b/g' -e '/x/d' README.md",
    'sort -n README.md',
    'grep -n word README.md',
    'git diff HEAD~1 -- README.md',
    'ls -la',
    'grep -rn api src',
  ])('%s: still runs without an ask', (command) => {
    expect(verdict('default', command)).toBe('allow');
    expect(verdict('plan', command)).toBe('allow');
  });

  it('names the reason', () => {
    expect(readToolHazard(['sort', '-oFILE'])).toMatch(/sort -o/);
    expect(readToolHazard(['git', '-c', 'x=y', 'status'])).toMatch(/-c/);
    expect(readToolHazard(['cat', 'README.md'])).toBeUndefined();
    expect(readToolHazard(['valueOf'])).toBeUndefined();
  });
});

describe('sed scripts are scanned, not guessed', () => {
  it.each([
    ['p', undefined],
    ['1,5p', undefined],
    ['/a/,/b/d', undefined],
    ['s/a/b/g;s|x|y|', undefined],
    ['$!N;P;D', undefined],
    ['y/abc/xyz/', undefined],
    ['1i\\\nhello', undefined],
    ['/x/{p;q}', undefined],
    ['1e id', /e runs/],
    ['s/.*/touch X/e', /s\/\/\/e/],
    ['s/a/b/gw out', /w writes/],
    ['w out', /w writes/],
    ['W out', /w writes/],
    ['r /etc/passwd', /reads/],
    ['2R x', /reads/],
    ['s/unclosed', /cannot read/],
    ['K', /does not know/],
  ] as const)('%j', (script, expected) => {
    const why = sedScriptHazard(script);
    if (expected === undefined) expect(why).toBeUndefined();
    else expect(why).toMatch(expected);
  });

  it('never throws on any script', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        const r = sedScriptHazard(s);
        expect(r === undefined || typeof r === 'string').toBe(true);
      }),
    );
  });
});

describe('deny rules see the executable, however it is spelled', () => {
  const deny = { deny: ['Bash(rm:*)'] };
  it.each([
    '/bin/rm -rf victim',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${IFS}, as a model writes it
    'rm${IFS}-rf victim',
    'rm$IFS-rf victim',
    'busybox rm -rf victim',
    'env rm -rf victim',
    'command rm -rf victim',
    '\\rm -rf victim',
    "r''m -rf victim",
    'find victim -delete',
    'find . -name victim -exec rm -rf {} ;',
    'unlink victim',
    "env sh -c 'rm -rf victim'",
    "busybox sh -c 'rm -rf victim'",
    'nice -n 5 /usr/bin/rm -rf victim',
  ])('%s is denied by Bash(rm:*) in every mode, bypassPermissions included', (command) => {
    expect(ruleEffect(deny, 'shell', { command })).toBe('deny');
    for (const mode of ['default', 'plan', 'auto-edit', 'auto', 'yolo'] as const) {
      expect(verdict(mode, command, deny), mode).toBe('deny');
    }
  });

  it('find -delete is destructive (auto refuses it)', () => {
    expect(isDestructiveShell(splitShellCommand('find victim -delete'))).toBe(true);
    expect(verdict('auto', 'find victim -delete')).toBe('deny');
  });

  it('variants are nested: never read-only, never approved by an allow rule', () => {
    const seg = splitShellCommand('/bin/rm -rf x').segments[0]!;
    const v = executableVariants(seg);
    expect(v.map((s) => s.text)).toEqual(['rm -rf x']);
    expect(v.every((s) => s.nested)).toBe(true);
    expect(ruleEffect({ allow: ['Bash(/bin/rm:*)'] }, 'shell', { command: '/bin/rm -rf x' })).toBe('none');
  });
});

describe('path arguments', () => {
  it('finds absolute, home and climbing paths, as words, option values or glued', () => {
    expect(
      pathArgumentsOf(['diff', '--from-file=/etc/passwd', '-f/etc/x', '~/a', '../b', 'c', '/dev/null']),
    ).toEqual(['/etc/passwd', '/etc/x', '~/a', '../b']);
  });

  it('a read-only line naming only project paths stays read-only', () => {
    expect(verdict('default', `cat ${ROOTS.projectRoot}/README.md`)).toBe('allow');
  });
});

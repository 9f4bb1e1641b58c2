import { describe, expect, it } from 'vitest';
import { isDestructiveShell, isReadOnlyShell, splitShellCommand } from '../../src/access/index.js';
import { approve, ruleEffect } from './fixtures.js';

const allowGitStatus = { allow: ['shell(git status:*)'] };

describe('compound shell commands are judged per simple command', () => {
  const cases: [string, string, 'allow' | 'none' | 'deny' | 'ask'][] = [
    ['plain', 'git status', 'allow'],
    ['with args', 'git status --short', 'allow'],
    ['; rm', 'git status; rm -rf ~', 'none'],
    ['&& rm', 'git status && rm -rf ~', 'none'],
    ['|| rm', 'git status || rm -rf ~', 'none'],
    ['| sh', 'git status | sh', 'none'],
    ['newline', 'git status\nrm -rf ~', 'none'],
    ['background &', 'git status & rm -rf ~', 'none'],
    ['$() substitution', 'git status $(rm -rf ~)', 'none'],
    ['backticks', 'git status `rm -rf ~`', 'none'],
    ['substitution in double quotes', 'git status "$(rm -rf ~)"', 'none'],
    ['output redirection', 'git status > /etc/passwd', 'none'],
    ['redirect to /dev/null is fine', 'git status 2>/dev/null', 'allow'],
    ['fd duplication is fine', 'git status 2>&1', 'allow'],
    ['read-only tail is fine', 'git status | head -5', 'allow'],
    ['sh -c smuggling', "git status && sh -c 'rm -rf ~'", 'none'],
    ['heredoc is opaque', 'git status <<EOF\nx\nEOF', 'none'],
    ['unbalanced quote is opaque', "git status 'oops", 'none'],
    ['subshell', '(git status; rm -rf ~)', 'none'],
    ['quoted operator is data', "git status -- 'a;b'", 'allow'],
    ['any env prefix (XDG_CONFIG_HOME, LESSOPEN, … can make a program run code)', 'FOO=1 git status', 'none'],
    ['config-dir env prefix', 'XDG_CONFIG_HOME=/tmp/x git status', 'none'],
    ['code-loading env prefix', 'LD_PRELOAD=/tmp/x.so git status', 'none'],
    ['git hook env prefix', 'GIT_SSH_COMMAND="sh -c id" git status', 'none'],
    ['env wrapper with risky var', 'env PAGER=evil git status', 'none'],
  ];
  it.each(cases)('%s: %j', (_t, command, expected) => {
    expect(ruleEffect(allowGitStatus, 'shell', { command })).toBe(expected);
  });

  it('deny rules catch any sub-command, through wrappers and quoting', () => {
    const deny = { deny: ['Bash(rm *)'], allow: ['Bash'] };
    for (const command of [
      'echo hi && rm -rf x',
      'sudo rm -rf x',
      'timeout 5 rm -rf x',
      'FOO=1 rm x',
      'find . | xargs rm -f',
      'echo $(rm -rf x)',
      '"rm" -rf x',
      "bash -c 'rm -rf x'",
      'eval rm -rf x',
      'cat <<EOF; rm -rf x\nhello\nEOF',
      "echo 'unbalanced; rm -rf x",
    ]) {
      expect(ruleEffect(deny, 'shell', { command }), command).toBe('deny');
    }
    expect(ruleEffect(deny, 'shell', { command: 'ls -la' })).toBe('allow');
  });

  it('ask rules catch sub-commands even in yolo', () => {
    expect(
      approve('yolo', 'shell', { command: 'make && git push origin main' }, { ask: ['Bash(git push:*)'] })
        .verdict,
    ).toBe('ask');
  });

  it('Read/Edit path rules see files a command reads or writes', () => {
    expect(ruleEffect({ deny: ['Read(./.env)'] }, 'shell', { command: 'ls && head -n1 .env' })).toBe('deny');
    expect(ruleEffect({ deny: ['Read(./.env)'] }, 'shell', { command: 'sort < .env' })).toBe('deny');
    expect(ruleEffect({ deny: ['Edit(src/**)'] }, 'shell', { command: 'echo x > src/a.ts' })).toBe('deny');
    expect(ruleEffect({ deny: ['Read(./.env)'] }, 'shell', { command: 'cat README.md' })).toBe('none');
    expect(ruleEffect({ deny: ['Read(//etc/**)'] }, 'shell', { command: 'cd /etc && cat passwd' })).toBe(
      'deny',
    );
    expect(ruleEffect({ deny: ['Read(~/.ssh/**)'] }, 'shell', { command: 'cd ~/.ssh; tail id_rsa' })).toBe(
      'deny',
    );
  });

  it('read-only and destructive classes', () => {
    const ro = (c: string) => isReadOnlyShell(splitShellCommand(c));
    const de = (c: string) => isDestructiveShell(splitShellCommand(c));
    expect(ro('ls -la && git diff HEAD | wc -l')).toBe(true);
    expect(ro('find . -name x -delete')).toBe(false);
    expect(ro('sed -i s/a/b/ f')).toBe(false);
    expect(ro('echo hi > f')).toBe(false);
    expect(ro('cat $(which node)')).toBe(false);
    expect(de('rm -rf build')).toBe(true);
    expect(de('sudo rm -fr /')).toBe(true);
    expect(de('git push --force origin')).toBe(true);
    expect(de('git reset --hard HEAD~1')).toBe(true);
    expect(de('rm file.txt')).toBe(false);
  });

  it('auto mode: read-only runs, destructive refused, the rest asks', () => {
    expect(approve('auto', 'shell', { command: 'git log -5' }).verdict).toBe('allow');
    expect(approve('auto', 'shell', { command: 'rm -rf build' }).verdict).toBe('deny');
    expect(approve('auto', 'shell', { command: 'npm install' }).verdict).toBe('ask');
  });
});

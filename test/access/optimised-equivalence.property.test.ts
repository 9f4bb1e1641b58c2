import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileCommandPattern,
  isDestructiveShell,
  isReadOnlyShell,
  splitShellCommand,
} from '../../src/access/index.js';
import { compileRuleSet, evaluateRules } from '../../src/access/rule-set.js';
import { segmentIsReadOnly } from '../../src/access/shell-risk.js';
import { compileCommandPattern as oracleCompile } from './oracle/command-pattern.oracle.js';
import {
  compileRuleSet as oracleCompileRuleSet,
  evaluateRules as oracleEvaluateRules,
} from './oracle/rule-set.oracle.js';
import {
  isDestructiveShell as oracleDestructive,
  isReadOnlyShell as oracleReadOnly,
  segmentIsReadOnly as oracleSegmentReadOnly,
} from './oracle/shell-risk.oracle.js';
import { splitShellCommand as oracleSplit } from './oracle/shell-split.oracle.js';

// The per-call shell path was rewritten for speed; these properties pin it to the previous
// implementation (kept under ./oracle/) on random and hostile command lines.
const atoms = [
  'git',
  'npm',
  'rm',
  'sudo',
  'xargs',
  'env',
  'timeout',
  '5',
  '-rf',
  '-c',
  'sh',
  'bash',
  'eval',
  'cat',
  'ls',
  'find',
  '-exec',
  'sed',
  '-i',
  'sort',
  '-o',
  'FOO=1',
  'LD_PRELOAD=x',
  'GIT_DIR=y',
  '.env',
  '/etc/passwd',
  '~',
  'cd',
  '/tmp',
  'push',
  '--force',
  'reset',
  '--hard',
  'status',
  'branch',
  '-D',
  'mkfs.ext4',
  'dd',
  'chmod',
  '-R',
  'if',
  'then',
  'fi',
  'do',
  'done',
  '{',
  '}',
  '!',
  'nohup',
  'exec',
  'command',
  'clean',
  '-fd',
  '/dev/sda',
  ':(){',
  ':|:&',
  '};:',
  'a*b',
  'x\\*y',
  '*',
  ' ',
  '  ',
  '\t',
  '\n',
  ';',
  ';;',
  '&&',
  '||',
  '|',
  '|&',
  '&',
  '>',
  '>>',
  '<',
  '<<',
  '<<<',
  '2>&1',
  '>&2',
  '&>',
  '>|',
  '/dev/null',
  '(',
  ')',
  '$(',
  '`',
  '<(',
  '>(',
  "'",
  '"',
  '\\',
  '\\\n',
  '#',
  '$',
  'arg1',
  'sub2',
  'out.txt',
];
const line = fc
  .tuple(
    fc.array(fc.oneof(fc.constantFrom(...atoms), fc.string({ maxLength: 6 })), { maxLength: 14 }),
    fc.constantFrom(' ', ''),
  )
  .map(([xs, sep]) => xs.join(sep));
const lineSpaced = fc.array(fc.constantFrom(...atoms), { maxLength: 14 }).map((xs) => xs.join(' '));
const anyLine = fc.oneof(
  line,
  lineSpaced,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

const patternAtoms = [
  'git',
  'npm',
  'rm',
  ' ',
  '*',
  '\\*',
  '\\',
  ':*',
  'a',
  'arg1',
  '-rf',
  'sub',
  '.',
  '\n',
  '?',
  '(',
  '$',
];
const pattern = fc.oneof(
  fc.array(fc.constantFrom(...patternAtoms), { minLength: 1, maxLength: 8 }).map((xs) => xs.join('')),
  fc.string({ maxLength: 12 }),
);

describe('optimised shell path decides exactly as the previous implementation', () => {
  it('splitShellCommand and the risk classes agree with the oracle', () => {
    fc.assert(
      fc.property(anyLine, (l) => {
        const a = splitShellCommand(l);
        const b = oracleSplit(l);
        expect(a).toEqual(b);
        expect(isReadOnlyShell(a)).toBe(oracleReadOnly(b));
        expect(isDestructiveShell(a)).toBe(oracleDestructive(b));
        for (let i = 0; i < a.segments.length; i++) {
          expect(segmentIsReadOnly(a.segments[i]!)).toBe(oracleSegmentReadOnly(b.segments[i]!));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('compiled command patterns match exactly the commands the oracle matches', () => {
    fc.assert(
      fc.property(pattern, fc.array(anyLine, { minLength: 1, maxLength: 6 }), (p, cs) => {
        const m = compileCommandPattern(p);
        const o = oracleCompile(p);
        // Also try commands built from the pattern's own text, where near-misses live.
        const lit = p.replace(/\\?\*|:\*$/g, '');
        for (const c of [...cs, lit, `${lit} x`, `${lit}x`, p, `${p} ${cs[0]}`, `x ${lit}`]) {
          expect(m(c)).toBe(o(c));
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('optimised shell rule evaluation decides exactly as the previous implementation', () => {
  const roots = { projectRoot: '/proj', cwd: '/proj', home: '/home/u' };
  const ruleText = fc.oneof(
    fc
      .tuple(fc.constantFrom(...atoms), fc.constantFrom(...patternAtoms), fc.constantFrom(...atoms))
      .map(([a, b, c]) => `Bash(${a} ${b}${c})`),
    fc.constantFrom(
      'Bash',
      'Bash(git push:*)',
      'Bash(rm -rf *)',
      'Bash(npm run *)',
      'Bash(git *arg1*)',
      'Bash(cat *)',
      'Bash(ls)',
      'Read(./.env)',
      'Read(~/**)',
      'Read(/etc/**)',
      'Read(//etc/**)',
      'Edit(out.txt)',
      'Edit(src/**)',
      'Read',
      'Edit',
    ),
  );
  const ruleSource = fc.record({
    allow: fc.array(ruleText, { maxLength: 8 }),
    ask: fc.array(ruleText, { maxLength: 4 }),
    deny: fc.array(ruleText, { maxLength: 4 }),
  });

  it('evaluateRules gives the same effect, rule and shell analysis on any line', () => {
    fc.assert(
      fc.property(ruleSource, fc.array(anyLine, { minLength: 1, maxLength: 5 }), (src, lines) => {
        const set = compileRuleSet([{ source: 'p', ...src }], roots);
        const old = oracleCompileRuleSet([{ source: 'p', ...src }], roots);
        for (const command of lines) {
          const a = evaluateRules(set, 'shell', { command }, { kind: 'command', value: command });
          const b = oracleEvaluateRules(old, 'shell', { command });
          expect(a.effect).toBe(b.effect);
          expect(a.rule?.text).toBe(b.rule?.text);
          expect(a.rule?.effect).toBe(b.rule?.effect);
          expect(a.shell).toEqual(b.shell);
        }
      }),
      { numRuns: 500 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import {
  PolicyConfigError,
  parsePolicyYaml,
  parseReviewerDocument,
  parseYamlWithLines,
} from '../../src/policy/index.js';

const HEAD = 'version: 1\ngrants:\n  employee: [calendar]\nrules:\n';

// yaml body, expected rule, field, line
const CASES: [string, string, string, string, number][] = [
  [
    'unknown attribute root',
    `${HEAD}  - id: r1\n    effect: deny\n    when: { attr: user.name, equals: x }\n`,
    'r1',
    'when.attr',
    7,
  ],
  ['bad effect', `${HEAD}  - id: r2\n    effect: permit\n`, 'r2', 'effect', 6],
  ['missing id', `${HEAD}  - effect: deny\n`, '#0', 'id', 5],
  ['duplicate id', `${HEAD}  - id: r3\n    effect: deny\n  - id: r3\n    effect: deny\n`, 'r3', 'id', 7],
  [
    'unknown operator',
    `${HEAD}  - id: r4\n    effect: deny\n    when:\n      all:\n        - { attr: args.x, like: y }\n`,
    'r4',
    'when.all.0.like',
    9,
  ],
  [
    'two operators',
    `${HEAD}  - id: r5\n    effect: deny\n    when: { attr: args.x, equals: a, in: [b] }\n`,
    'r5',
    'when',
    7,
  ],
  [
    'in needs a list',
    `${HEAD}  - id: r6\n    effect: deny\n    when: { attr: args.x, in: east }\n`,
    'r6',
    'when.in',
    7,
  ],
  [
    'tool attribute',
    `${HEAD}  - id: r7\n    effect: deny\n    when: { attr: tool.owner, equals: x }\n`,
    'r7',
    'when.attr',
    7,
  ],
  ['unknown rule field', `${HEAD}  - id: r8\n    effect: deny\n    role: [employee]\n`, 'r8', 'role', 7],
  ['empty roles', `${HEAD}  - id: r9\n    effect: deny\n    roles: []\n`, 'r9', 'roles', 7],
  ['grant not a list', 'version: 1\ngrants:\n  employee: calendar\n', 'grant.employee', '(rule)', 3],
  ['open allow', `${HEAD}  - id: r10\n    effect: allow\n`, 'r10', 'roles', 5],
  [
    'scope outside principal',
    'version: 1\nparameters:\n  tools:\n    salary_analysis:\n      departments:\n        scope: { within: args.x, onOutside: narrow }\n',
    'parameters.salary_analysis',
    'departments.scope.within',
    6,
  ],
  ['reserved id', `${HEAD}  - id: policy.default-deny\n    effect: deny\n`, 'policy.default-deny', 'id', 5],
];

describe('policy files are validated on load, errors name file, rule, field and line', () => {
  it.each(CASES)('%s', (_name, text, rule, field, line) => {
    let err: unknown;
    try {
      parsePolicyYaml(text, 'examples/test/policies.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PolicyConfigError);
    const e = err as PolicyConfigError;
    expect(e.location).toEqual({ file: 'examples/test/policies.yaml', rule, field, line });
    expect(e.message).toContain(`examples/test/policies.yaml:${line}`);
    expect(e.message).toContain(`rule "${rule}"`);
    expect(e.message).toContain(`field "${field}"`);
    expect(e.code).toBe('policy.invalid');
  });

  it('broken YAML names the file and line', () => {
    expect(() => parsePolicyYaml('version: 1\nrules: [\n', 'p.yaml')).toThrow(/p\.yaml:\d/);
  });

  it('reviewer files are validated the same way', () => {
    const text = 'version: 1\nreviewers:\n  - id: a\n    tools: [x]\n    decision: maybe\n    reason: r\n';
    const { value, locate } = parseYamlWithLines(text, 'reviewers.yaml');
    expect(() => parseReviewerDocument(value, 'reviewers.yaml', locate)).toThrow(
      'reviewers.yaml:5: rule "a": field "decision": must be approve or deny',
    );
  });
});

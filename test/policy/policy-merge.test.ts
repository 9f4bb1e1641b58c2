import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTools } from '../../examples/office/tools/index.js';
import { loadConfig, type TwinlineConfig } from '../../src/config/index.js';
import { loadConfigPolicy } from '../../src/pipeline/index.js';
import { loadPolicyFiles, PolicyConfigError } from '../../src/policy/index.js';
import { officeSchema, who } from './office.js';

// Both doors that merge several policy files — `serve` (loadConfigPolicy, through createPlatform)
// and `eval` (loadPolicyFiles, the oracle) — go through the one strict merge.
const dir = mkdtempSync(join(tmpdir(), 'twinline-policy-merge-'));
const office = loadConfig('examples/office/twinline.config.yaml');
const tools = createTools({ dataDir: join(dir, 'office') });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const configWith = (policies: string[]): TwinlineConfig => {
  const { policyDocuments: _prebuilt, ...rest } = office;
  return { ...rest, policies };
};

/** Loads through serve's door and through eval's; both must agree on success or the error. */
function bothDoors(files: string[]) {
  const outcome = (load: () => unknown) => {
    try {
      load();
      return 'loaded';
    } catch (err) {
      return err;
    }
  };
  return {
    serve: outcome(() => loadConfigPolicy(configWith(files), tools)),
    eval: outcome(() => loadPolicyFiles(files, officeSchema)),
  };
}

const GRANTS = 'version: 1\ngrants:\n  employee: [calendar, attendance]\n';

describe('several policy files load through one strict merge on every door', () => {
  it('refuses a rule id declared in two files, naming both', () => {
    const a = file(
      'dup-a.yaml',
      `${GRANTS}rules:\n  - id: shared.id\n    effect: deny\n    tools: [calendar_list]\n`,
    );
    const b = file(
      'dup-b.yaml',
      'version: 1\nrules:\n  - id: other\n    effect: deny\n    tools: [calendar_list]\n  - id: shared.id\n    effect: deny\n    tools: [attendance_query]\n',
    );
    const { serve, eval: ev } = bothDoors([a, b]);
    for (const err of [serve, ev]) {
      expect(err).toBeInstanceOf(PolicyConfigError);
      const e = err as PolicyConfigError;
      expect(e.location).toMatchObject({ file: b, rule: 'shared.id', field: 'id', line: 6 });
      expect(e.message).toContain(`${a}:5`);
    }
  });

  it('merges parameter constraints of one tool per argument (a later file adds, never replaces)', () => {
    const a = file(
      'params-a.yaml',
      `${GRANTS}parameters:\n  tools:\n    attendance_query:\n      from: { date: { maxDaysAgo: 31, maxDaysAhead: 0 } }\n`,
    );
    const b = file(
      'params-b.yaml',
      'version: 1\nparameters:\n  tools:\n    attendance_query:\n      to: { date: { maxDaysAgo: 31, maxDaysAhead: 1 } }\n      user: { oneOf: [alice, bob] }\n',
    );
    const engine = loadConfigPolicy(configWith([a, b]), tools);
    const params = engine?.document.parameters.tools.attendance_query;
    expect(Object.keys(params ?? {}).sort()).toEqual(['from', 'to', 'user']);
    expect(params?.from?.date).toEqual({ maxDaysAgo: 31, maxDaysAhead: 0 });
    expect(loadPolicyFiles([a, b], officeSchema)?.parameters).toEqual(engine?.document.parameters);
    // And different constraint kinds on the same argument combine.
    const c = file(
      'params-c.yaml',
      'version: 1\nparameters:\n  tools:\n    attendance_query:\n      from: { oneOf: ["2026-11-01"] }\n',
    );
    const merged = loadPolicyFiles([a, c], officeSchema)?.parameters.tools.attendance_query?.from;
    expect(merged).toMatchObject({ date: { maxDaysAgo: 31, maxDaysAhead: 0 }, oneOf: ['2026-11-01'] });
    // The merged document decides: alice is still granted attendance.
    expect(engine?.decide(who('alice', 'acme'), attendanceFacts(), {}).effect).toBe('allow');
  });

  it('refuses conflicting constraints on the same argument, naming both files', () => {
    const a = file(
      'conflict-a.yaml',
      `${GRANTS}parameters:\n  tools:\n    attendance_query:\n      from: { date: { maxDaysAgo: 31 } }\n`,
    );
    const b = file(
      'conflict-b.yaml',
      'version: 1\nparameters:\n  tools:\n    attendance_query:\n      from: { date: { maxDaysAgo: 365 } }\n',
    );
    const { serve, eval: ev } = bothDoors([a, b]);
    for (const err of [serve, ev]) {
      expect(err).toBeInstanceOf(PolicyConfigError);
      const e = err as PolicyConfigError;
      expect(e.location).toMatchObject({
        file: b,
        rule: 'parameters.attendance_query',
        field: 'from.date',
        line: 5,
      });
      expect(e.message).toContain(`${a}:7`);
    }
  });

  it('refuses two different thirdParty settings', () => {
    const a = file('tp-a.yaml', `${GRANTS}parameters:\n  thirdParty: { minRisk: high }\n`);
    const b = file('tp-b.yaml', 'version: 1\nparameters:\n  thirdParty: { minRisk: medium }\n');
    const { serve } = bothDoors([a, b]);
    expect((serve as PolicyConfigError).location).toMatchObject({ file: b, field: 'thirdParty' });
    // The same setting twice is fine.
    const c = file('tp-c.yaml', 'version: 1\nparameters:\n  thirdParty: { minRisk: high }\n');
    expect(bothDoors([a, c])).toEqual({ serve: 'loaded', eval: 'loaded' });
  });

  it('a deny rule that could never match fails to load on both doors, naming file, line and field', () => {
    // the refund cap with a string where a number belongs, and a misspelt argument
    for (const [when, field, message] of [
      ['{ attr: args.to, gt: "two hundred" }', 'when.gt', /not "two hundred"/],
      ['{ attr: args.usr, equals: principal.user }', 'when.equals', /unknown attribute args\.usr/],
      [
        '{ attr: principal.departmnt, equals: sales }',
        'when.equals',
        /unknown attribute principal\.departmnt/,
      ],
    ] as const) {
      const f = file(
        `dead-${field}-${when.length}.yaml`,
        `${GRANTS}rules:\n  - id: attendance.cap\n    effect: deny\n    tools: [attendance_query]\n    when: ${when}\n`,
      );
      const { serve, eval: ev } = bothDoors([f]);
      for (const err of [serve, ev]) {
        expect(err).toBeInstanceOf(PolicyConfigError);
        expect((err as PolicyConfigError).location).toMatchObject({
          file: f,
          rule: 'attendance.cap',
          field,
          line: 8,
        });
        expect((err as Error).message).toMatch(message);
      }
    }
  });

  it('grants of one role from two files add up', () => {
    const a = file('grant-a.yaml', 'version: 1\ngrants:\n  employee: [calendar]\n');
    const b = file('grant-b.yaml', 'version: 1\ngrants:\n  employee: [attendance]\n');
    const engine = loadConfigPolicy(configWith([a, b]), tools);
    expect(engine?.decide(who('alice', 'acme'), attendanceFacts(), {}).effect).toBe('allow');
  });
});

function attendanceFacts() {
  const spec = tools.find((t) => t.name === 'attendance_query')!;
  return {
    name: spec.name,
    category: spec.permissions.category,
    riskLevel: spec.riskLevel,
    requiredDataLevel: spec.permissions.requiredDataLevel,
    allowedRoles: spec.permissions.allowedRoles,
  };
}

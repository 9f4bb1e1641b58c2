import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  EvalSuiteError,
  loadSuiteFile,
  loadSuites,
  resolvePlaceholders,
  resolveScript,
} from '../../src/eval/index.js';

const dir = mkdtempSync(join(tmpdir(), 'twinline-suite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function suite(text: string): string {
  const file = join(dir, `s${++n}.yaml`);
  writeFileSync(file, text);
  return file;
}

const ok = `scenarios:
  - id: ok-1
    kind: normal
    identity: { tenant: acme, user: alice }
    query: 查看我这周的日程
    expect: { route: quick }
`;

describe('suite schema errors name file, scenario and field', () => {
  it.each([
    [
      'unknown kind',
      `scenarios:\n  - id: a-1\n    kind: sneaky\n    identity: { tenant: acme, user: alice }\n    query: hi\n    expect: {}\n`,
      { scenario: 'a-1', field: 'kind', line: 3 },
    ],
    [
      'missing id (named by index)',
      `scenarios:\n  - kind: normal\n    identity: { tenant: acme, user: alice }\n    query: hi\n    expect: {}\n`,
      { scenario: '#0', field: 'id', line: 2 },
    ],
    [
      'missing user',
      `${ok}  - id: u-2\n    kind: normal\n    identity: { tenant: acme }\n    query: hi\n    expect: {}\n`,
      { scenario: 'u-2', field: 'identity.user', line: 9 },
    ],
    [
      'bad expected outcome',
      `${ok}  - id: b-2\n    kind: routing\n    identity: { tenant: acme, user: bob }\n    query: x\n    expect:\n      outcome: exploded\n`,
      { scenario: 'b-2', field: 'expect.outcome', line: 12 },
    ],
    [
      'unknown expect key',
      `scenarios:\n  - id: c-1\n    kind: normal\n    identity: { tenant: acme, user: alice }\n    query: hi\n    expect: { routes: deep }\n`,
      { scenario: 'c-1', field: 'expect', line: 6 },
    ],
    [
      'model turn without content',
      `scenarios:\n  - id: d-1\n    kind: normal\n    identity: { tenant: acme, user: alice }\n    query: hi\n    model:\n      - {}\n    expect: {}\n`,
      { scenario: 'd-1', field: 'model.0', line: 7 },
    ],
  ])('%s', (_name, text, want) => {
    const file = suite(text);
    let error: unknown;
    try {
      loadSuiteFile(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EvalSuiteError);
    const err = error as EvalSuiteError;
    expect(err.message).toContain(file);
    expect(err.message).toContain(`scenario ${want.scenario}`);
    expect(err.message).toContain(`field ${want.field}`);
    expect(err.details).toMatchObject({ file, scenario: want.scenario, field: want.field, line: want.line });
    expect(err.where).toBe(`${file}:${want.line}`);
  });

  it('reports YAML syntax errors with a line', () => {
    const file = suite('scenarios:\n  - id: x\n    kind: [normal\n');
    expect(() => loadSuiteFile(file)).toThrow(/YAML syntax error/);
  });

  it('refuses a duplicate id across files of a folder, naming both', () => {
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.yaml'), ok);
    writeFileSync(join(folder, 'b.yaml'), ok);
    expect(() => loadSuites([folder])).toThrow(/scenario ok-1: field id: also used in .*a\.yaml/);
  });

  it('loads a folder in name order, defaulting config to the office domain', () => {
    const suites = loadSuites(['eval/office']);
    expect(suites.length).toBeGreaterThanOrEqual(5);
    expect(suites[0]!.config).toMatch(/examples\/office\/twinline\.config\.yaml$/);
  });
});

describe('scripted model', () => {
  it.each([
    ['{{today}}', '2026-11-30'],
    ['{{today-7}}', '2026-11-23'],
    ['{{ today + 3 }}', '2026-12-03'],
    ['{{month}}', '2026-11'],
    ['{{month-1}}', '2026-10'],
    ['{{month-11}}', '2025-12'],
  ])('%s → %s', (input, out) => {
    expect(resolvePlaceholders(input, new Date('2026-11-30T10:00:00Z'))).toBe(out);
  });

  it('turns plans into JSON text turns that declare their tools, and lists every proposal', () => {
    const s = resolveScript(
      [
        { plan: { goal: 'g', steps: [{ goal: 'a', tool: 'doc_search', args: { query: '{{today}}' } }] } },
        { tool_calls: [{ name: 'calendar_list', arguments: { from: '{{today}}' } }] },
        { text: 'done' },
      ],
      new Date('2026-11-30T00:00:00Z'),
    );
    expect(JSON.parse(s.turns[0]!.text!)).toEqual({
      goal: 'g',
      capabilities: ['doc_search'],
      steps: [{ goal: 'a', tool: 'doc_search', args: { query: '2026-11-30' } }],
    });
    expect(s.proposed).toEqual([
      { tool: 'doc_search', args: { query: '2026-11-30' } },
      { tool: 'calendar_list', args: { from: '2026-11-30' } },
    ]);
  });
});

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AgentDefinitionError,
  defineAgent,
  loadAgentDefinitions,
  splitToolList,
} from '../../src/access/index.js';
import { defFile, parseDef } from './fixtures.js';

function errorOf(text: string): AgentDefinitionError {
  const dir = mkdtempSync(join(tmpdir(), 'twl-def-'));
  mkdirSync(join(dir, '.twinline/agents'), { recursive: true });
  writeFileSync(join(dir, '.twinline/agents/bad.md'), text);
  const r = loadAgentDefinitions({ cwd: dir, homeDir: join(dir, 'home') });
  expect(r.definitions).toEqual([]);
  expect(r.errors).toHaveLength(1);
  return r.errors[0]!;
}

describe('agent definition loading errors name path, line and field', () => {
  const cases: [string, string, number, string | undefined][] = [
    ['no frontmatter', 'just text', 1, undefined],
    ['missing name', defFile('description: d'), 2, 'name'],
    ['reserved name', defFile('name: main\ndescription: d'), 2, 'name'],
    ['missing description', defFile('name: helper'), 2, 'description'],
    [
      'bad approvalMode on line 4',
      defFile('name: helper\ndescription: d\napprovalMode: root'),
      4,
      'approvalMode',
    ],
    ['bad permissionMode', defFile('name: helper\ndescription: d\n\npermissionMode: 7'), 5, 'permissionMode'],
    [
      'non-string tool entry on its own line',
      defFile('name: helper\ndescription: d\ntools:\n  - read_file\n  - 42'),
      6,
      'tools',
    ],
    [
      'empty tool entry in a string',
      defFile('name: helper\ndescription: d\ntools: "read_file,,grep"'),
      4,
      'tools',
    ],
    ['maxTurns not positive', defFile('name: helper\ndescription: d\nmaxTurns: -1'), 4, 'maxTurns'],
    ['background not boolean', defFile('name: helper\ndescription: d\nbackground: maybe'), 4, 'background'],
    ['mcpServers scalar', defFile('name: helper\ndescription: d\nmcpServers: 3'), 4, 'mcpServers'],
    ['broken YAML', defFile('name: helper\ndescription: [unclosed'), 3, undefined],
    ['duplicate key', defFile('name: helper\nname: other\ndescription: d'), 3, undefined],
  ];
  it.each(cases)('%s', (_t, text, line, field) => {
    const err = errorOf(text);
    expect(err).toBeInstanceOf(AgentDefinitionError);
    expect(err.code).toBe('access.definition-invalid');
    expect(err.path).toMatch(/bad\.md$/);
    expect(err.line).toBe(line);
    expect(err.field).toBe(field);
    expect(err.message).toContain(`bad.md:${line}`);
  });

  it('one bad file does not stop the others', () => {
    const dir = mkdtempSync(join(tmpdir(), 'twl-def-'));
    mkdirSync(join(dir, '.twinline/agents'), { recursive: true });
    writeFileSync(join(dir, '.twinline/agents/a.md'), defFile('name: alpha\ndescription: a'));
    writeFileSync(join(dir, '.twinline/agents/b.md'), defFile('name: beta\ndescription: b\nbackground: 3'));
    writeFileSync(join(dir, '.twinline/agents/c.md'), defFile('name: gamma\ndescription: c'));
    writeFileSync(join(dir, '.twinline/agents/notes.txt'), 'ignored');
    const r = loadAgentDefinitions({ cwd: dir, homeDir: join(dir, 'home') });
    expect(r.definitions.map((d) => d.name)).toEqual(['alpha', 'gamma']);
    expect(r.errors.map((e) => e.field)).toEqual(['background']);
  });

  it('duplicate names within one directory: the second file is an error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'twl-def-'));
    mkdirSync(join(dir, '.twinline/agents'), { recursive: true });
    writeFileSync(join(dir, '.twinline/agents/a.md'), defFile('name: alpha\ndescription: a'));
    writeFileSync(join(dir, '.twinline/agents/b.md'), defFile('name: Alpha\ndescription: b'));
    const r = loadAgentDefinitions({ cwd: dir, homeDir: join(dir, 'home') });
    expect(r.definitions).toHaveLength(1);
    expect(r.errors[0]?.message).toMatch(/already defined/);
  });

  it('programmatic definitions win over files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'twl-def-'));
    mkdirSync(join(dir, '.twinline/agents'), { recursive: true });
    writeFileSync(join(dir, '.twinline/agents/a.md'), defFile('name: alpha\ndescription: file'));
    const r = loadAgentDefinitions({
      cwd: dir,
      homeDir: join(dir, 'home'),
      programmatic: [defineAgent({ name: 'alpha', description: 'code' })],
    });
    expect(r.definitions.map((d) => [d.description, d.source])).toEqual([['code', 'programmatic']]);
  });
});

describe('agent definition fields', () => {
  it('parses every field, Qwen and Claude spellings', () => {
    const def = parseDef(
      [
        'name: reviewer',
        'description: Reviews diffs',
        'tools: [Read, "Bash(git diff:*)", mcp__github]',
        'disallowed_tools: Write, Bash(rm *)',
        'permissionMode: bypassPermissions',
        'modelConfig:',
        '  model: qwen-max',
        'runConfig:',
        '  max_turns: 30',
        '  max_time_minutes: 5',
        'background: "true"',
        'mcpServers:',
        '  github: { command: gh-mcp }',
        'color: blue',
        'somethingNew: 1',
      ].join('\n'),
      '\n  Review carefully.\n',
    );
    expect(def).toMatchObject({
      name: 'reviewer',
      description: 'Reviews diffs',
      tools: ['Read', 'Bash(git diff:*)', 'mcp__github'],
      disallowedTools: ['Write', 'Bash(rm *)'],
      approvalMode: 'yolo',
      model: 'qwen-max',
      maxTurns: 30,
      maxTimeMinutes: 5,
      background: true,
      mcpServers: { github: { command: 'gh-mcp' } },
      systemPrompt: 'Review carefully.',
      source: 'project',
    });
    expect(def.warnings).toEqual(['unknown field "somethingNew" ignored']);
  });

  it('CRLF files and an explicit empty tools list', () => {
    const def = parseDef('name: helper\r\ndescription: d\r\ntools: []');
    expect(def.tools).toEqual([]);
  });

  it('splits tool lists on top-level commas only', () => {
    expect(splitToolList('Read, Agent(a, b), mcp__x')).toEqual(['Read', 'Agent(a, b)', 'mcp__x']);
  });

  it('programmatic definitions are checked', () => {
    expect(() => defineAgent({ name: 'x', description: 'd' })).toThrow(AgentDefinitionError);
  });
});

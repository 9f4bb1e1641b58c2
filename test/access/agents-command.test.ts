import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BUILTIN_TOOL_NAMES,
  createAccessStage,
  createApprovalStage,
  loadAccessEnvironment,
  prepareAgentCheck,
} from '../../src/access/index.js';
import { agentsReport } from '../../src/cli/commands/agents-run.js';
import { ConfigError } from '../../src/core/index.js';
import { defFile } from './fixtures.js';

function fixture() {
  const root = mkdtempSync(join(tmpdir(), 'twl-agents-'));
  const proj = join(root, 'proj');
  const home = join(root, 'home');
  mkdirSync(join(proj, '.twinline/agents'), { recursive: true });
  mkdirSync(join(home, '.twinline/agents'), { recursive: true });
  writeFileSync(
    join(proj, '.twinline/agents/reviewer.md'),
    defFile(
      'name: reviewer\ndescription: Reviews diffs\ntools: Read, Grep, Bash, AskUserQuestion\ndisallowedTools: Bash(rm *)\npermissionMode: acceptEdits',
    ),
  );
  writeFileSync(
    join(home, '.twinline/agents/scout.md'),
    defFile('name: scout\ndescription: Looks around\nbackground: true'),
  );
  writeFileSync(
    join(proj, '.twinline/agents/broken.md'),
    defFile('name: broken\ndescription: d\nmaxTurns: lots'),
  );
  writeFileSync(join(home, '.twinline/trustedFolders.json'), JSON.stringify({ [proj]: 'TRUST_FOLDER' }));
  writeFileSync(
    join(proj, '.twinline/settings.json'),
    JSON.stringify({ approvalMode: 'auto-edit', permissions: { deny: ['WebSearch'] } }),
  );
  return { proj, home };
}

describe('twinline agents', () => {
  it('reports definitions with resolved tools and mode, and load errors', () => {
    const { proj, home } = fixture();
    const report = agentsReport(loadAccessEnvironment({ cwd: proj, homeDir: home }));
    expect(report.trusted).toBe(true);
    expect(report.sessionMode).toBe('auto-edit');
    const reviewer = report.agents.find((a) => a.name === 'reviewer')!;
    expect(reviewer).toMatchObject({
      source: 'project',
      mode: 'auto-edit',
      tools: ['grep', 'read_file', 'shell'],
      scopedDenyRules: ['Bash(rm *)'],
    });
    const scout = report.agents.find((a) => a.name === 'scout')!;
    expect(scout.background).toBe(true);
    expect(scout.tools).not.toContain('ask_user');
    expect(scout.tools).not.toContain('web_search');
    expect(scout.tools).not.toContain('task_create');
    expect(report.errors).toEqual([
      expect.objectContaining({ field: 'maxTurns', line: 4, path: join(proj, '.twinline/agents/broken.md') }),
    ]);
  });

  it('runs as a CLI command with --json, --cwd and --home (exit 1 when a file failed)', () => {
    const { proj, home } = fixture();
    let out = '';
    let status = 0;
    try {
      out = execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '-e',
          `import('./src/cli/main.ts').then(async (m) => { process.exitCode = await m.main(['node', 'twinline', 'agents', '--json', '--cwd', ${JSON.stringify(proj)}, '--home', ${JSON.stringify(home)}]); })`,
        ],
        { encoding: 'utf8', stdio: 'pipe' },
      );
    } catch (err) {
      const e = err as { status: number; stdout: string };
      status = e.status;
      out = e.stdout;
    }
    expect(status).toBe(1);
    const report = JSON.parse(out) as { agents: { name: string }[]; errors: unknown[] };
    expect(report.agents.map((a) => a.name).sort()).toEqual(['reviewer', 'scout']);
    expect(report.errors).toHaveLength(1);
  });
});

describe('prepareAgentCheck (for `twinline check --agent NAME`)', () => {
  it('builds the agent state the access and approval stages read', async () => {
    const { proj, home } = fixture();
    const check = prepareAgentCheck({
      cwd: proj,
      homeDir: home,
      available: BUILTIN_TOOL_NAMES,
      agentName: 'reviewer',
    });
    expect(check.state.mode).toBe('auto-edit');
    const call = {
      call: { id: 'c', name: 'shell', arguments: {} },
      tool: undefined as never,
      args: { command: 'rm -rf x' },
    };
    const ctx = {
      identity: { tenant: 't', user: 'u', roles: [], dataLevel: 'L1' as const, attributes: {} },
      sessionId: 's',
      extensions: check.extensions,
    };
    expect(await createAccessStage().evaluate(call, ctx)).toMatchObject({
      verdict: 'deny',
      ruleId: 'permission.deny',
    });
    const ask = { ...call, call: { ...call.call, name: 'ask_user' }, args: {} };
    expect(await createAccessStage().evaluate(ask, ctx)).toMatchObject({ ruleId: 'tool.unavailable' });
    const grep = { ...call, call: { ...call.call, name: 'grep' }, args: { pattern: 'x' } };
    expect(await createApprovalStage().evaluate(grep, ctx)).toMatchObject({ verdict: 'allow' });
    expect(() =>
      prepareAgentCheck({ cwd: proj, homeDir: home, available: BUILTIN_TOOL_NAMES, agentName: 'nobody' }),
    ).toThrow(ConfigError);
  });
});

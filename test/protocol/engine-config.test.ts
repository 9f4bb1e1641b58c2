import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TwinlineAgent } from '../../src/sdk/index.js';
import { assertBuilt, engineEnv, TWINLINE_BIN, unmarked } from './sdk-harness.js';

/**
 * The stream-json engine on a config of the user's: its `mcpServers` are imported as on every
 * other door, and its audit lands in the config's data folder, which the CLI finds from any
 * working directory.
 */
const OFFICE = resolve('examples/office');
let base: string;
let domain: string;
let project: string;

beforeAll(() => {
  assertBuilt();
  base = mkdtempSync(join(tmpdir(), 'twinline-engine-config-'));
  domain = join(base, 'domain');
  project = join(base, 'project');
  mkdirSync(domain);
  mkdirSync(project);
  const office = readFileSync(join(OFFICE, 'twinline.config.yaml'), 'utf8')
    .replace('module: ./tools/index.ts', `module: ${join(OFFICE, 'tools/index.ts')}`)
    .replace(/weights: .*/, `weights: ${resolve('src/router/model/router-weights.json')}`)
    .replace('users: ./users.yaml', `users: ${join(OFFICE, 'users.yaml')}`)
    .replace('roles: ./roles.yaml', `roles: ${join(OFFICE, 'roles.yaml')}`)
    .replace(/^policies:.*$/m, `policies: [${join(OFFICE, 'policies.yaml')}]`);
  writeFileSync(
    join(domain, 'twinline.config.yaml'),
    `${office}
mcpServers:
  fixture:
    command: ${process.execPath}
    args: [--import, tsx, ${resolve('test/agent/support/mcp-fixture-server.ts')}]
    cwd: ${resolve('.')}
    category: docs
`,
  );
  writeFileSync(
    join(project, 'turns.json'),
    JSON.stringify([
      { tool_calls: [{ id: 'm1', name: 'mcp__fixture__lookup', arguments: { word: 'gateway' } }] },
      { text: 'Looked it up.' },
    ]),
  );
});
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('the stream-json engine on a configured domain', () => {
  it('imports the config’s MCP servers, calls their tools through the gateway, and audits into the data folder', async () => {
    const agent = new TwinlineAgent({
      cwd: project,
      model: `scripted:${join(project, 'turns.json')}`,
      permissionMode: 'default',
      env: engineEnv({
        TWINLINE_CONFIG: join(domain, 'twinline.config.yaml'),
        TWINLINE_USER: 'bob',
        TWINLINE_TENANT: 'acme',
      }),
    });
    let toolResult = '';
    try {
      agent.on('permission_request', async () => 'allow' as const);
      for await (const m of agent.run('look up the word gateway')) {
        if (m.type === 'user') toolResult += JSON.stringify(m);
      }
    } finally {
      await agent.close();
    }
    // the MCP server's answer came back (quoted as third-party data)
    expect(unmarked(toolResult)).toMatch(/definition of gateway/);
    expect(unmarked(toolResult)).toMatch(/third-party-data source=.*mcp__fixture__lookup/);

    // the CLI, run from another folder, reads the same audit through the same config
    const audit = spawnSync(
      process.execPath,
      [
        TWINLINE_BIN,
        'audit',
        '--json',
        '--config',
        join(domain, 'twinline.config.yaml'),
        '--tool',
        'mcp__fixture__lookup',
      ],
      { cwd: tmpdir(), encoding: 'utf8', env: engineEnv() },
    );
    expect(audit.status, audit.stderr).toBe(0);
    expect(audit.stderr).toContain(`data: ${join(domain, '.twinline')}`);
    // tasks and reviews open the same store, and say so
    for (const args of [
      ['tasks', '--json'],
      ['reviews', 'list', '--json'],
    ]) {
      const r = spawnSync(
        process.execPath,
        [TWINLINE_BIN, ...args, '--config', join(domain, 'twinline.config.yaml')],
        {
          cwd: tmpdir(),
          encoding: 'utf8',
          env: engineEnv(),
        },
      );
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        `data: ${join(domain, '.twinline')} (store: sqlite ${join(domain, '.twinline', 'twinline.sqlite')})`,
      );
    }
    const records = JSON.parse(audit.stdout) as { tool: string; status: string; user: string }[];
    expect(records).toEqual([
      expect.objectContaining({ tool: 'mcp__fixture__lookup', status: 'executed', user: 'bob' }),
    ]);
  }, 120_000);

  it('keeps the data folder unwritable by the workspace tools, wherever it is', async () => {
    // the data folder lives outside the project here: the built-in deny must still cover it
    writeFileSync(
      join(project, 'write.json'),
      JSON.stringify([
        {
          tool_calls: [
            {
              id: 'w1',
              name: 'write_file',
              arguments: { path: join(domain, '.twinline', 'watermark.key'), content: 'x' },
            },
          ],
        },
        { text: 'Tried.' },
      ]),
    );
    const agent = new TwinlineAgent({
      cwd: project,
      model: `scripted:${join(project, 'write.json')}`,
      permissionMode: 'default',
      env: engineEnv({ TWINLINE_CONFIG: join(domain, 'twinline.config.yaml') }),
    });
    let seen = '';
    try {
      agent.on('permission_request', async () => 'allow' as const);
      for await (const m of agent.run('overwrite the key')) seen += JSON.stringify(m);
    } finally {
      await agent.close();
    }
    expect(unmarked(seen)).toMatch(/access\.engine-state|engine state|data folder/);
  }, 120_000);
  it('a directive planted deep in a long tool result reaches the model marked; its benign twin does not', async () => {
    writeFileSync(
      join(project, 'turns-minutes.json'),
      JSON.stringify([
        {
          tool_calls: [
            { id: 'p1', name: 'mcp__fixture__lookup', arguments: { word: 'minutes' } },
            { id: 'p2', name: 'mcp__fixture__lookup', arguments: { word: 'minutes-clean' } },
          ],
        },
        { text: 'Read both.' },
      ]),
    );
    const agent = new TwinlineAgent({
      cwd: project,
      model: `scripted:${join(project, 'turns-minutes.json')}`,
      permissionMode: 'default',
      env: engineEnv({
        TWINLINE_CONFIG: join(domain, 'twinline.config.yaml'),
        TWINLINE_USER: 'bob',
        TWINLINE_TENANT: 'acme',
      }),
    });
    const results: string[] = [];
    try {
      agent.on('permission_request', async () => 'allow' as const);
      for await (const m of agent.run('read the committee minutes')) {
        if (m.type === 'user') results.push(unmarked(JSON.stringify(m)));
      }
    } finally {
      await agent.close();
    }
    // the scanner's verdict decides the handling: the planted line is quoted as an instruction
    // not to be followed, inside the document the model still gets to read
    const planted = results.find((r) => r.includes('when you summarise these minutes'));
    const twin = results.find((r) => r.includes('Note to Finance'));
    expect(planted).toMatch(/quoted instruction, not to be followed: «[^»]*when you summarise these minutes/);
    expect(planted).toContain('Parking permits go live');
    expect(twin).toBeDefined();
    expect(twin).not.toMatch(/quoted instruction|possible prompt injection|\[removed/);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  loadConfig,
  loadOfficeDomain,
  loadTools,
  OFFICE_CONFIG_PATH,
  resolveDeepAdmission,
} from '../../src/config/index.js';
import { ConfigError } from '../../src/core/index.js';

const dir = mkdtempSync(join(tmpdir(), 'twinline-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const USERS = `users:
  - { tenant: t1, user: ann, roles: [reader], dataLevel: L2, attributes: { department: rd } }
`;
const ROLES = `roles:
  reader: { categories: [docs] }
`;
const TOOLS_MODULE = `import { z } from 'zod';
export const tools = [{
  name: 'ping', description: 'ping', inputSchema: z.strictObject({}),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  riskLevel: 'low', permissions: { allowedRoles: ['reader'], requiredDataLevel: 'L1', category: 'docs' },
  requiresReview: false, timeoutMs: 100, execute: async () => 'pong',
}];
`;

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  write('users.yaml', USERS);
  write('roles.yaml', ROLES);
  write('tools.mjs', TOOLS_MODULE);

  it('loads a config, resolving paths against its folder', async () => {
    const file = write(
      'ok.yaml',
      'domain: lab\ntools: ./tools.mjs\nusers: ./users.yaml\nroles: ./roles.yaml\nstore: { sqlite: x.sqlite }\n',
    );
    const c = loadConfig(file);
    expect(c.domain).toBe('lab');
    expect(c.tools.module).toBe(join(dir, 'tools.mjs'));
    expect(c.users).toEqual([
      { tenant: 't1', user: 'ann', roles: ['reader'], dataLevel: 'L2', attributes: { department: 'rd' } },
    ]);
    expect(c.roles['reader']?.categories).toEqual(['docs']);
    expect(c.store.sqliteFile?.endsWith('x.sqlite')).toBe(true);
    const tools = await loadTools(c);
    expect(tools.map((t) => t.name)).toEqual(['ping']);
  });

  it('names file, line and field of an invalid value', () => {
    const file = write(
      'bad-field.yaml',
      'domain: lab\ntools: ./tools.mjs\nusers: ./users.yaml\napprovalTimeoutMs: -5\n',
    );
    const e = configError(() => loadConfig(file));
    expect(e.code).toBe('config.invalid');
    expect(e.message).toContain(`${file}:4`);
    expect(e.message).toContain('approvalTimeoutMs');
  });

  it('reads deep-line admission caps from the lines section; caps that cannot hold fail to load', () => {
    const base = 'domain: lab\ntools: ./tools.mjs\nusers: ./users.yaml\n';
    const ok = write(
      'adm-ok.yaml',
      `${base}lines:\n  deep:\n    allow: []\n    admission: { concurrency: 6, perTenant: 3, perUser: 1 }\n`,
    );
    expect(loadConfig(ok).lines.deepAdmission).toEqual({ concurrency: 6, perTenant: 3, perUser: 1 });
    const over = write(
      'adm-over.yaml',
      `${base}lines:\n  deep:\n    admission: { concurrency: 2, perTenant: 3 }\n`,
    );
    const e = configError(() => loadConfig(over));
    expect(e.code).toBe('config.deep-admission');
    expect(e.message).toContain('lines.deep.admission');
    expect(e.message).toMatch(/perTenant \(3\) is more than concurrency \(2\)/);
    const user = write(
      'adm-user.yaml',
      `${base}lines:\n  deep:\n    admission: { perTenant: 1, perUser: 2 }\n`,
    );
    expect(configError(() => loadConfig(user)).message).toMatch(/perUser \(2\) is more than perTenant \(1\)/);
    const zero = write('adm-zero.yaml', `${base}lines:\n  deep:\n    admission: { perUser: 0 }\n`);
    expect(configError(() => loadConfig(zero)).message).toContain('perUser');
    const typo = write('adm-typo.yaml', `${base}lines:\n  deep:\n    admission: { perTennant: 1 }\n`);
    expect(configError(() => loadConfig(typo)).message).toContain('perTennant');
  });

  it('fills admission defaults so another tenant always finds a free slot', () => {
    expect(resolveDeepAdmission(undefined, undefined, 'f')).toEqual({
      concurrency: 4,
      perTenant: 3,
      perUser: 2,
      maxQueuedPerTenant: 1000,
    });
    expect(resolveDeepAdmission(undefined, 2, 'f')).toMatchObject({
      concurrency: 2,
      perTenant: 1,
      perUser: 1,
    });
    expect(resolveDeepAdmission({ concurrency: 8 }, undefined, 'f')).toMatchObject({
      perTenant: 7,
      perUser: 2,
    });
    // An override (TWINLINE_DEEP_CONCURRENCY) below the written caps is refused, not clamped.
    expect(() => resolveDeepAdmission({ perTenant: 3 }, 2, 'f')).toThrow(/perTenant \(3\)/);
  });

  it('reads the watermark switch per channel; a mode that does not exist fails to load', () => {
    const base = 'domain: lab\ntools: ./tools.mjs\nusers: ./users.yaml\n';
    const ok = write('wm-ok.yaml', `${base}watermark: { channels: { cli: off, stream-json: field } }\n`);
    expect(loadConfig(ok).watermark).toEqual({
      default: 'text',
      channels: { cli: 'off', 'stream-json': 'field' },
    });
    const bad = write('wm-bad.yaml', `${base}watermark: { channels: { cli: hidden } }\n`);
    expect(configError(() => loadConfig(bad)).message).toContain('watermark.channels.cli');
  });

  it('an MCP server may ask for the process sandbox; a profile that means nothing fails to load', () => {
    const ok = write(
      'mcp-sandbox.yaml',
      'domain: lab\ntools: ./tools.mjs\nusers: ./users.yaml\n' +
        'mcpServers:\n  fs: { command: node, args: [server.js], sandbox: read-only }\n  web: { command: node, sandbox: { profile: network, allowedDomains: [example.com] } }\n',
    );
    const servers = loadConfig(ok).mcpServers as Record<string, { sandbox?: unknown }>;
    expect(servers['fs']?.sandbox).toBe('read-only');
    expect(servers['web']?.sandbox).toEqual({
      profile: 'network',
      allowedDomains: ['example.com'],
      readRoots: [],
    });
    const bad = write(
      'mcp-sandbox-bad.yaml',
      'domain: lab\ntools: ./tools.mjs\nusers: ./users.yaml\nmcpServers:\n  fs: { command: node, sandbox: off }\n',
    );
    const e = configError(() => loadConfig(bad));
    expect(e.message).toContain(`${bad}:5`);
    expect(e.message).toContain('sandbox');
  });

  it('names an unknown field', () => {
    const file = write('unknown.yaml', 'domain: lab\ntools: ./tools.mjs\nusers: ./users.yaml\nstorage: {}\n');
    const e = configError(() => loadConfig(file));
    expect(e.message).toContain('storage');
  });

  it('names the line of a YAML syntax error', () => {
    const file = write('syntax.yaml', 'domain: lab\ntools: [unclosed\nusers: ./users.yaml\n');
    const e = configError(() => loadConfig(file));
    expect(e.code).toBe('config.yaml-syntax');
    expect(e.message).toMatch(new RegExp(`${file}:\\d+`));
  });

  it('names the users file, line and field of a bad user', () => {
    const users = write(
      'bad-users.yaml',
      'users:\n  - { tenant: t1, user: ann, roles: [reader], dataLevel: L2 }\n  - { tenant: t1, user: bo, roles: [reader], dataLevel: L7 }\n',
    );
    const file = write('cfg-bad-users.yaml', `tools: ./tools.mjs\nusers: ${users}\n`);
    const e = configError(() => loadConfig(file));
    expect(e.message).toContain(`${users}:3`);
    expect(e.message).toContain('users.1.dataLevel');
  });

  it('refuses a user with an undeclared role, and duplicate users', () => {
    const users = write(
      'role-users.yaml',
      'users:\n  - { tenant: t1, user: ann, roles: [writer], dataLevel: L2 }\n',
    );
    const file = write('cfg-role.yaml', `tools: ./tools.mjs\nusers: ${users}\nroles: ./roles.yaml\n`);
    expect(configError(() => loadConfig(file)).code).toBe('config.unknown-role');
    const dup = write(
      'dup-users.yaml',
      `${USERS}  - { tenant: t1, user: ann, roles: [reader], dataLevel: L1 }\n`,
    );
    const file2 = write('cfg-dup.yaml', `tools: ./tools.mjs\nusers: ${dup}\n`);
    expect(configError(() => loadConfig(file2)).code).toBe('config.duplicate-user');
  });

  it('reports a missing config file and a tools module without tools', async () => {
    expect(configError(() => loadConfig(join(dir, 'absent.yaml'))).code).toBe('config.not-found');
    write('empty-tools.mjs', 'export const nothing = 1;\n');
    const file = write('cfg-empty.yaml', 'tools: ./empty-tools.mjs\nusers: ./users.yaml\n');
    await expect(loadTools(loadConfig(file))).rejects.toMatchObject({ code: 'config.tools-module' });
  });

  it('defaults to the office domain', () => {
    const office = loadOfficeDomain();
    expect(office.file).toBe(OFFICE_CONFIG_PATH);
    expect(loadConfig().file).toBe(OFFICE_CONFIG_PATH);
    expect(office.domain).toBe('office');
    // Other modules add users (e.g. reviewers); the Foundation's users must be there as declared.
    const byKey = new Map(office.users.map((u) => [`${u.tenant}/${u.user}`, u]));
    const expected: [string, string, string][] = [
      ['acme/alice', 'employee', 'L1'],
      ['acme/bob', 'sales_manager', 'L2'],
      ['acme/carol', 'finance_analyst', 'L3'],
      ['acme/dave', 'project_admin', 'L3'],
      ['acme/erin', 'hr_analyst', 'L3'],
      ['acme/frank', 'project_owner', 'L3'],
      ['acme/mallory', 'employee', 'L1'],
      ['globex/gina', 'finance_analyst', 'L3'],
      ['globex/hank', 'employee', 'L1'],
    ];
    for (const [key, role, level] of expected) {
      expect(byKey.get(key)?.roles).toContain(role);
      expect(byKey.get(key)?.dataLevel).toBe(level);
    }
    expect(byKey.get('acme/dave')?.attributes['projects']).toEqual(['phoenix']);
    expect(byKey.get('acme/erin')?.attributes['departments']).toEqual(['rd']);
    expect(byKey.get('acme/bob')?.attributes['region']).toBe('east');
    expect(office.lines.quick.length + office.lines.deep.length).toBeGreaterThan(0);
  });
});

import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { ConfigError } from '../../src/core/index.js';
import { createRuntime, type Runtime } from '../../src/runtime/index.js';
import { officeTempConfig } from '../support/office-temp.js';

const FIXTURE = resolve('test/agent/support/mcp-fixture-server.ts');
let office: ReturnType<typeof officeTempConfig>;
let rt: Runtime;

beforeAll(async () => {
  office = officeTempConfig();
  appendFileSync(
    office.configFile,
    `mcpServers:\n  glossary:\n    command: ${process.execPath}\n    args: [--import, tsx, ${FIXTURE}]\n    allowedRoles: [employee]\n`,
  );
  rt = await createRuntime(loadConfig(office.configFile));
}, 60_000);

afterAll(async () => {
  await rt?.close();
  office?.cleanup();
});

describe('MCP servers from the config file', () => {
  it('are imported at start-up as mcp__server__tool and their calls pass the gateway', async () => {
    const names = rt.registry.list().map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['mcp__glossary__lookup', 'mcp__glossary__wipe', 'mcp__glossary__plain']),
    );
    // No annotation → not read-only, medium risk; a destructive hint → high risk behind review.
    expect(rt.registry.get('mcp__glossary__plain')?.riskLevel).toBe('medium');
    expect(rt.registry.get('mcp__glossary__wipe')?.requiresReview).toBe(true);
    const alice = rt.identities.resolve('alice', 'acme');
    const ok = await rt.gateway.invoke(
      { id: 'm1', name: 'mcp__glossary__plain', arguments: { n: 21 } },
      { identity: alice, sessionId: 's' },
    );
    expect(ok.status).toBe('executed');
    expect(ok.modelContent).toContain('42');
    const bad = await rt.gateway.invoke(
      { id: 'm2', name: 'mcp__glossary__plain', arguments: { n: 'x' } },
      { identity: alice, sessionId: 's' },
    );
    expect(bad.status).toBe('denied');
    // Only the roles the config names may call the server.
    const carol = rt.identities.resolve('carol', 'acme');
    const refused = await rt.gateway.invoke(
      { id: 'm3', name: 'mcp__glossary__plain', arguments: { n: 1 } },
      { identity: carol, sessionId: 's' },
    );
    expect(refused.status).toBe('denied');
  });

  it('a server that cannot start stops start-up with an error naming it', async () => {
    const broken = officeTempConfig();
    try {
      appendFileSync(broken.configFile, 'mcpServers:\n  ghost:\n    command: /nonexistent/mcp-server\n');
      await expect(createRuntime(loadConfig(broken.configFile))).rejects.toThrow(ConfigError);
      await expect(createRuntime(loadConfig(broken.configFile))).rejects.toThrow(/mcpServers\.ghost/);
    } finally {
      broken.cleanup();
    }
  }, 60_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AgentSession,
  type AgentSessionOptions,
  createAccessPort,
  createControlTools,
  type Script,
  ScriptedProvider,
  type SubagentDefinition,
} from '../../../src/agent/index.js';
import { loadOfficeDomain, type TwinlineConfig } from '../../../src/config/index.js';
import { createRuntime, type Runtime } from '../../../src/runtime/index.js';
import type { AuditRecord } from '../../../src/store/index.js';
import type { ToolSpec } from '../../../src/tools/index.js';

export interface OfficeAgentOptions extends Partial<Omit<AgentSessionOptions, 'provider' | 'definitions'>> {
  readonly script: Script;
  readonly user?: string;
  readonly tenant?: string;
  /** Extra real tools registered beside the office and control tools. */
  readonly extraTools?: readonly ToolSpec[];
  readonly definitions?: readonly SubagentDefinition[];
}

export interface OfficeAgent {
  readonly session: AgentSession;
  readonly runtime: Runtime;
  readonly provider: ScriptedProvider;
  /** Every audit record of the session, oldest first (flushes first). */
  audit(): Promise<AuditRecord[]>;
  cleanup(): Promise<void>;
}

/**
 * A session on the real office domain: the real registry, gateway (access, schema, rbac, review,
 * approval stages) and SQLite store in a temporary folder, driven by a scripted model.
 */
export async function officeAgent(opts: OfficeAgentOptions): Promise<OfficeAgent> {
  const dir = mkdtempSync(join(tmpdir(), 'twinline-agent-'));
  const base = loadOfficeDomain();
  const config: TwinlineConfig = {
    ...base,
    tools: { ...base.tools, options: { ...base.tools.options, dataDir: join(dir, 'office') } },
    store: { sqliteFile: join(dir, 'twinline.sqlite') },
  };
  const runtime = await createRuntime(config, { profile: 'agent-session' });
  const registry = runtime.registry;
  const roles = [...new Set(config.users.flatMap((u) => u.roles))];
  registry.registerAll([...createControlTools({ allowedRoles: roles }), ...(opts.extraTools ?? [])]);
  const provider = new ScriptedProvider(opts.script, 'test');
  const { script: _s, user, tenant, extraTools: _e, definitions, ...rest } = opts;
  const session = new AgentSession({
    identity: runtime.identities.resolve(user ?? 'bob', tenant ?? 'acme'),
    provider,
    gateway: runtime.gateway,
    catalog: registry,
    access: createAccessPort(),
    definitions: definitions ?? [],
    ...rest,
  });
  return {
    session,
    runtime,
    provider,
    async audit() {
      await runtime.store!.audit.flush();
      const rows = await runtime.store!.audit.query({ limit: 10_000 });
      return rows.filter((r) => r.sessionId === session.sessionId).reverse();
    },
    async cleanup() {
      await session.close();
      await runtime.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTools } from '../../examples/office/tools/index.js';
import { loadConfig } from '../../src/config/index.js';
import type { Identity } from '../../src/core/index.js';
import {
  type CallContext,
  type GatewayStage,
  reviewStage,
  schemaStage,
  ToolGateway,
} from '../../src/gateway/index.js';
import {
  createIntentStage,
  createParameterStage,
  createPolicyStage,
  loadPolicyFile,
  PolicyEngine,
  type PolicySchema,
  policySchema,
} from '../../src/policy/index.js';
import { IdentityDirectory } from '../../src/runtime/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { ToolRegistry } from '../../src/tools/index.js';

export const POLICY_FILE = 'examples/office/policies.yaml';
export const officeDocument = loadPolicyFile(POLICY_FILE);
export const officeEngine = new PolicyEngine(officeDocument);
const officeConfig = loadConfig('examples/office/twinline.config.yaml');
const directory = new IdentityDirectory(officeConfig.users);

/** What the office policy files may refer to: the office tools (never opened here) and users. */
export const officeSchema: PolicySchema = policySchema({
  tools: createTools({ dataDir: join(tmpdir(), 'twinline-office-schema-unused') }),
  users: officeConfig.users,
  roles: Object.keys(officeConfig.roles),
});

/** An office user as trusted ingress resolves them (users.yaml). */
export const who = (user: string, tenant?: string): Identity => directory.resolve(user, tenant);

/** The policy part of the pipeline, in canonical order around Foundation's schema and review stages. */
export function policyStages(options: { intent?: boolean } = {}): GatewayStage[] {
  return [
    schemaStage,
    createPolicyStage(officeEngine),
    createParameterStage(officeDocument.parameters),
    ...(options.intent === false ? [] : [createIntentStage()]),
    reviewStage,
  ];
}

export interface OfficeHarness {
  readonly store: Store;
  readonly registry: ToolRegistry;
  readonly gateway: ToolGateway;
  close(): Promise<void>;
}

/** Real office tools over temp SQLite data, a real SQLite store and the real gateway. */
export async function openOffice(options: { intent?: boolean } = {}): Promise<OfficeHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'twinline-policy-'));
  const store = await openStore({ sqliteFile: join(dir, 'store.sqlite') });
  const registry = new ToolRegistry().registerAll(createTools({ dataDir: join(dir, 'office') }));
  const gateway = new ToolGateway({
    tools: registry,
    audit: store.audit,
    reviews: store.reviews,
    stages: policyStages(options),
  });
  return {
    store,
    registry,
    gateway,
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const ctxFor = (identity: Identity, extra: Partial<CallContext> = {}): CallContext => ({
  identity,
  sessionId: `policy-test-${identity.user}`,
  domain: 'deep',
  ...extra,
});

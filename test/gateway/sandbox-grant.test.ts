import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovalStage } from '../../src/access/index.js';
import { decide } from '../../src/core/index.js';
import { defaultStages, ToolGateway } from '../../src/gateway/index.js';
import type { AuditRecord } from '../../src/store/index.js';
import { ToolRegistry, type ToolSpec } from '../../src/tools/index.js';
import { createShellTool, type ShellResult } from '../../src/tools/workspace/index.js';
import { sandboxUp } from '../support/sandbox.js';
import { makeSandbox } from '../tools/workspace/workspace-fixture.js';
import { alice } from './sample-tools.js';

// The sandbox profile reaches `execute` only from the stages' decisions; the audit row says what
// the call's processes actually ran under. Real shell tool, real bubblewrap.
const box = makeSandbox();
const records: AuditRecord[] = [];
const audit = { record: (r: AuditRecord) => void records.push(r), flush: async () => {} };
const shell = createShellTool({ root: box.workspace });
const registry = new ToolRegistry().registerAll([shell as ToolSpec]);

beforeAll(() => {
  mkdirSync(box.workspace, { recursive: true });
  writeFileSync(join(box.workspace, 'README.md'), 'readme\n');
});
afterAll(() => box.remove());

// The deciding stages (schema, RBAC, review) and the approval stage, as an agent gateway has them.
const STAGES = [...defaultStages(), createApprovalStage()];

const ctx = (approvalMode: string) => ({
  identity: { ...alice, roles: ['developer'] },
  sessionId: 's',
  approvalMode,
  cwd: box.workspace,
});

describe.skipIf(!sandboxUp)('the gateway carries the approval’s sandbox grant to execute', () => {
  it('an allowed command runs under the approval stage’s grant and the audit row says so', async () => {
    const gateway = new ToolGateway({ tools: registry, audit, stages: STAGES });
    const r = await gateway.invoke(
      { id: 'c1', name: 'shell', arguments: { command: 'cat README.md; touch x' } },
      ctx('yolo'),
    );
    expect(r.status).toBe('executed');
    expect((r.output as ShellResult).sandbox).toBe('workspace-write');
    expect(records.at(-1)).toMatchObject({ tool: 'shell', sandbox: 'workspace-write' });
    const approval = r.path.find((d) => d.stage === 'approval');
    expect(approval?.sandbox).toEqual({ profile: 'workspace-write' });
  });

  it('arguments cannot pick a profile; the last grant on the path wins', async () => {
    // A stage after approval narrows the grant; a model's extra `sandbox` argument is refused by
    // the shell's schema, which takes no keys it does not know.
    const narrow = {
      name: 'narrow',
      evaluate: () =>
        decide('allow', 'narrow', 'narrow.ro', 'read-only only', { sandbox: { profile: 'read-only' } }),
    };
    const gateway = new ToolGateway({
      tools: registry,
      audit,
      stages: [...STAGES, narrow],
    });
    const picked = await gateway.invoke(
      { id: 'c2', name: 'shell', arguments: { command: 'touch made.txt', sandbox: { profile: 'network' } } },
      ctx('yolo'),
    );
    expect(picked.status).toBe('denied');
    expect(picked.decision).toMatchObject({ stage: 'schema' });
    expect(picked.decision.reason).toContain('sandbox');
    const r = await gateway.invoke(
      { id: 'c3', name: 'shell', arguments: { command: 'touch made.txt' } },
      ctx('yolo'),
    );
    expect(r.status).toBe('executed');
    expect(r.output as ShellResult).toMatchObject({ sandbox: 'read-only', exitCode: 1 });
    expect(records.at(-1)?.sandbox).toBe('read-only');
  });

  it('a call that never reaches execute records no sandbox', async () => {
    const gateway = new ToolGateway({ tools: registry, audit, stages: STAGES });
    const r = await gateway.invoke(
      { id: 'c3', name: 'shell', arguments: { command: 'touch y' } },
      ctx('plan'),
    );
    expect(r.status).toBe('denied');
    expect(records.at(-1)).not.toHaveProperty('sandbox');
  });
});

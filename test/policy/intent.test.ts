import { describe, expect, it } from 'vitest';
import { createTools } from '../../examples/office/tools/index.js';
import type { CallContext, PreparedCall } from '../../src/gateway/index.js';
import { createIntentStage } from '../../src/policy/index.js';
import type { ToolSpec } from '../../src/tools/index.js';
import { who } from './office.js';

const tools = new Map<string, ToolSpec>(createTools({ dataDir: '/nonexistent' }).map((t) => [t.name, t]));
const stage = createIntentStage();
const prepared = (name: string): PreparedCall => {
  const tool = tools.get(name);
  if (!tool) throw new Error(name);
  return { call: { id: 'i', name, arguments: {} }, tool, args: {} };
};
const ctx = (extra: Partial<CallContext>): CallContext => ({
  identity: who('dave', 'acme'),
  sessionId: 's',
  ...extra,
});

describe('intent check for high-risk tools (docs/policy.md, "Intent check")', () => {
  it.each([
    ['calendar_list', undefined, undefined, 'allow', 'intent.not-high-risk'],
    ['project_config_update', ['project_config_update'], undefined, 'allow', 'intent.declared'],
    ['project_config_update', ['projects'], undefined, 'allow', 'intent.declared'],
    ['project_config_update', ['calendar_list', 'finance'], undefined, 'deny', 'intent.undeclared'],
    ['project_config_update', [], undefined, 'deny', 'intent.undeclared'],
    ['project_config_update', undefined, undefined, 'deny', 'intent.no-declaration'],
    ['project_config_update', undefined, { intent: { enforce: false } }, 'allow', 'intent.not-enforced'],
    ['project_config_update', ['calendar_list'], { intent: { enforce: false } }, 'deny', 'intent.undeclared'],
    ['record_delete', ['billing_report_query'], undefined, 'deny', 'intent.undeclared'],
  ] as const)('%s declared=%j ext=%j → %s %s', (tool, declared, extensions, verdict, ruleId) => {
    const d = stage.evaluate(
      prepared(tool),
      ctx({
        ...(declared ? { declaredCapabilities: declared } : {}),
        ...(extensions ? { extensions } : {}),
      }),
    );
    expect(d).toMatchObject({ verdict, stage: 'intent', ruleId });
    if (verdict === 'deny' && 'reason' in d) expect(d.reason).toMatch(/replan/);
  });
});

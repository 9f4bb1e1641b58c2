import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GLOBAL_DENY_FOR_SPAWNED } from '../../src/access/index.js';
import {
  type AccessGrant,
  createAccessPort,
  createControlTools,
  type SubagentDefinition,
} from '../../src/agent/index.js';
import type { ToolSpec } from '../../src/tools/index.js';

const domain = [
  'sales_query',
  'calendar_list',
  'ticket_create',
  'record_delete',
  'read_file',
  'shell',
  'mcp__gh__issues',
];
const available: ToolSpec[] = [
  ...createControlTools({ allowedRoles: ['employee'] }),
  ...domain.map(
    (name): ToolSpec => ({
      name,
      description: name,
      inputSchema: z.object({}),
      annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
      riskLevel: 'low',
      permissions: { allowedRoles: ['employee'], requiredDataLevel: 'L1', category: 'x' },
      requiresReview: false,
      timeoutMs: 1000,
      execute: async () => null,
    }),
  ),
];
const names = available.map((t) => t.name);
const MODES = ['plan', 'default', 'auto-edit', 'auto', 'yolo', 'bubble'] as const;
const RANK: Record<string, number> = { plan: 0, default: 1, bubble: 1, 'auto-edit': 2, auto: 3, yolo: 4 };

const definition = fc.record({
  tools: fc.option(fc.subarray([...names, '*', 'mcp__gh']), { nil: undefined }),
  disallowedTools: fc.option(fc.subarray(names), { nil: undefined }),
  approvalMode: fc.option(fc.constantFrom(...MODES), { nil: undefined }),
});
const position = fc.record({ background: fc.boolean(), teammate: fc.boolean() });

describe('createAccessPort over src/access', () => {
  it('for random agent chains: a child never has a tool or a mode beyond its parent, and never a global-deny tool', () => {
    const port = createAccessPort();
    fc.assert(
      fc.property(
        fc.constantFrom('default', 'auto-edit', 'auto', 'yolo', 'plan'),
        fc.array(fc.tuple(definition, position), { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        (mainMode, chain, trusted) => {
          let parent: AccessGrant = port.grant(
            { ref: { name: 'main', depth: 0, background: false, teammate: false }, requestedMode: mainMode },
            available,
            trusted,
          );
          chain.forEach(([d, pos], i) => {
            const def: SubagentDefinition = { name: `a${i}`, description: '', systemPrompt: '', ...strip(d) };
            const child = port.grant(
              {
                ref: {
                  name: def.name,
                  depth: i + 1,
                  background: pos.background || pos.teammate,
                  teammate: pos.teammate,
                },
                parent,
                definition: def,
              },
              available,
              trusted,
            );
            for (const t of child.tools) expect(parent.tools.has(t)).toBe(true);
            for (const t of GLOBAL_DENY_FOR_SPAWNED) expect(child.tools.has(t)).toBe(false);
            expect(RANK[child.approvalMode]!).toBeLessThanOrEqual(Math.max(RANK[parent.approvalMode]!, 1));
            parent = child;
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('carries the agent state the gateway stages read, with the call route', () => {
    const port = createAccessPort();
    const main = port.grant(
      { ref: { name: 'main', depth: 0, background: false, teammate: false }, requestedMode: 'plan' },
      available,
      false,
    );
    const ext = port.callExtensions!(
      main,
      { ref: { name: 'main', depth: 0, background: false, teammate: false } },
      'plan',
      'exec',
    );
    expect(ext.access).toMatchObject({
      agentName: 'main',
      mode: 'plan',
      background: false,
      depth: 0,
      route: 'exec',
    });
  });
});

function strip<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  TOOL_NAME_PATTERN,
  type ToolRegistrationCode,
  ToolRegistrationError,
  ToolRegistry,
  type ToolSpec,
} from '../../src/tools/index.js';

function tool(overrides: Partial<Record<keyof ToolSpec, unknown>> = {}): ToolSpec {
  return {
    name: 'sample_tool',
    description: 'a sample',
    inputSchema: z.strictObject({ q: z.string() }),
    annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
    riskLevel: 'low',
    permissions: { allowedRoles: ['employee'], requiredDataLevel: 'L1', category: 'docs' },
    requiresReview: false,
    timeoutMs: 1000,
    execute: async () => ({ ok: true }),
    ...overrides,
  } as ToolSpec;
}

const WRITE = { readOnly: false, destructive: false, idempotent: false, openWorld: false };

const refusals: [string, Partial<Record<keyof ToolSpec, unknown>>, ToolRegistrationCode, string][] = [
  [
    'high risk without review',
    { riskLevel: 'high', requiresReview: false },
    'tool.review-required',
    'requiresReview',
  ],
  [
    'critical without review',
    { riskLevel: 'critical', requiresReview: false },
    'tool.review-required',
    'requiresReview',
  ],
  ['name with a space', { name: 'bad name' }, 'tool.invalid-name', 'name'],
  ['empty name', { name: '' }, 'tool.invalid-name', 'name'],
  ['name of 65 characters', { name: 'a'.repeat(65) }, 'tool.invalid-name', 'name'],
  ['name with a dot', { name: 'a.b' }, 'tool.invalid-name', 'name'],
  [
    'destructive and read-only',
    { annotations: { readOnly: true, destructive: true, idempotent: true, openWorld: false } },
    'tool.destructive-read-only',
    'annotations',
  ],
  ['missing timeout', { timeoutMs: undefined }, 'tool.invalid-timeout', 'timeoutMs'],
  ['zero timeout', { timeoutMs: 0 }, 'tool.invalid-timeout', 'timeoutMs'],
  ['fractional timeout', { timeoutMs: 1.5 }, 'tool.invalid-timeout', 'timeoutMs'],
  ['NaN timeout', { timeoutMs: Number.NaN }, 'tool.invalid-timeout', 'timeoutMs'],
  ['cache on a write tool', { annotations: WRITE, cacheTtlMs: 1000 }, 'tool.cache-on-write', 'cacheTtlMs'],
  ['negative cache ttl', { cacheTtlMs: -1 }, 'tool.invalid-cache-ttl', 'cacheTtlMs'],
  ['unknown risk level', { riskLevel: 'extreme' }, 'tool.unknown-risk-level', 'riskLevel'],
  [
    'unknown data level',
    { permissions: { allowedRoles: [], requiredDataLevel: 'L9', category: 'docs' } },
    'tool.unknown-data-level',
    'permissions.requiredDataLevel',
  ],
  ['unknown kind', { kind: 'magic' }, 'tool.unknown-kind', 'kind'],
  ['no schema', { inputSchema: {} }, 'tool.invalid-schema', 'inputSchema'],
  ['no execute', { execute: undefined }, 'tool.missing-execute', 'execute'],
];

describe('ToolRegistry.register refusals', () => {
  it.each(refusals)('refuses %s', (_label, overrides, code, field) => {
    const registry = new ToolRegistry();
    let error: unknown;
    try {
      registry.register(tool(overrides));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ToolRegistrationError);
    const e = error as ToolRegistrationError;
    expect(e.code).toBe(code);
    expect(e.field).toBe(field);
    expect(e.tool).toBe(typeof overrides.name === 'string' ? overrides.name : 'sample_tool');
    expect(e.message).toContain(field);
    expect(registry.size).toBe(0);
  });

  it('refuses a duplicate name and keeps the first tool', () => {
    const registry = new ToolRegistry();
    const first = tool();
    registry.register(first);
    expect(() => registry.register(tool())).toThrow(
      expect.objectContaining({ code: 'tool.duplicate-name', tool: 'sample_tool', field: 'name' }),
    );
    expect(registry.get('sample_tool')).toBe(first);
  });

  it('accepts high risk with review, and read-only tools with a cache ttl', () => {
    const registry = new ToolRegistry();
    registry.registerAll([
      tool({ name: 'a', riskLevel: 'high', requiresReview: true }),
      tool({ name: 'b', cacheTtlMs: 300_000 }),
      tool({ name: 'c-d_E9', annotations: { ...WRITE, destructive: true } }),
    ]);
    expect(registry.list().map((t) => t.name)).toEqual(['a', 'b', 'c-d_E9']);
    expect(registry.has('b')).toBe(true);
    expect(registry.get('zzz')).toBeUndefined();
  });

  it('publishes manifests with JSON Schema inputs', () => {
    const registry = new ToolRegistry().registerAll([tool({ cacheTtlMs: 5 })]);
    const [entry] = registry.toJsonSchemaManifest();
    expect(entry).toMatchObject({
      name: 'sample_tool',
      kind: 'domain',
      cacheTtlMs: 5,
      inputSchema: {
        type: 'object',
        properties: { q: { type: 'string' } },
        required: ['q'],
        additionalProperties: false,
      },
    });
    expect(JSON.parse(JSON.stringify(entry))).toEqual(entry);
  });
});

describe('tool names', () => {
  it('a name is accepted exactly when it matches the MCP pattern', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 70, unit: 'grapheme-ascii' }), (name) => {
        const registry = new ToolRegistry();
        const ok = TOOL_NAME_PATTERN.test(name);
        if (ok) {
          registry.register(tool({ name }));
          expect(registry.get(name)?.name).toBe(name);
        } else {
          expect(() => registry.register(tool({ name }))).toThrow(ToolRegistrationError);
          expect(registry.size).toBe(0);
        }
      }),
      { numRuns: 500 },
    );
  });
});

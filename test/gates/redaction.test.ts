import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/index.js';
import { compilePath, createRedactionStage, redactFields } from '../../src/gates/index.js';
import { contextAt, prepared, toolWith } from './tool-fixture.js';

const output = {
  customers: [
    { name: '张三', phone: '13912345678', salary: 12000, idNo: '310104198805160021' },
    { name: '李四', phone: '13887654321', salary: 18000, idNo: '310104199001010012' },
  ],
  owner: { email: 'boss@corp.example' },
  total: 30000,
};
const tags = {
  'customers[].name': 'pii.name',
  'customers[].phone': 'pii.phone',
  'customers[].salary': 'hr.salary',
  'customers[].idNo': 'pii.id',
  'owner.email': 'pii.email',
  total: 'finance.amount',
};

describe('field redaction by level', () => {
  it('L1: phones and ids dropped, names masked, salaries aggregated, totals bucketed', () => {
    const r = redactFields(output, tags, 'L1');
    const out = r.output as typeof output;
    expect(out.customers[0]).toEqual({ name: '张*' });
    expect(out.owner).toEqual({});
    expect(out.total).toBe('10000–100000');
    expect(r.notes.find((n) => n.path === 'customers[].phone')?.action).toBe('drop');
  });

  it('L2: phones masked, salaries aggregated over the array, ids dropped', () => {
    const r = redactFields(output, tags, 'L2');
    const out = r.output as { customers: Array<Record<string, unknown>> };
    expect(out.customers[0]!.phone).toMatch(/^\*+5678$/);
    expect(out.customers[0]!.salary).toBeUndefined();
    expect(out.customers[0]!.idNo).toBeUndefined();
    expect(r.aggregates['customers[].salary']).toEqual({
      count: 2,
      sum: 30000,
      avg: 15000,
      min: 12000,
      max: 18000,
    });
  });

  it('L4 sees raw values and the input is never mutated', () => {
    const before = JSON.stringify(output);
    expect(redactFields(output, tags, 'L4').output).toEqual(output);
    redactFields(output, tags, 'L1');
    expect(JSON.stringify(output)).toBe(before);
  });

  it('hash keeps equal values joinable', () => {
    const policies = { 'pii.phone': { L1: 'hash', L2: 'hash', L3: 'hash', L4: 'raw' } } as const;
    const r = redactFields({ a: [{ p: '1' }, { p: '1' }] }, { 'a[].p': 'pii.phone' }, 'L2', { policies });
    const out = r.output as { a: Array<{ p: string }> };
    expect(out.a[0]!.p).toMatch(/^h:[0-9a-f]{16}$/);
    expect(out.a[0]!.p).toBe(out.a[1]!.p);
  });

  it('bad paths are a ConfigError naming the path', () => {
    expect(() => compilePath('a..b')).toThrow(ConfigError);
    expect(() => compilePath('a[x].b')).toThrow(/a\[x\]\.b/);
  });

  it('result.redact stage applies tags for the caller level and masks free-text PII', async () => {
    const stage = createRedactionStage();
    expect(stage.name).toBe('result.redact');
    const tool = toolWith({ fieldTags: tags });
    const r = await stage.transform(
      { ...output, note: '请回电 13912345678' },
      prepared(tool),
      contextAt('L2'),
    );
    const out = r.output as Record<string, unknown>;
    expect(out['_aggregates']).toBeDefined();
    expect(String(out['note'])).not.toContain('13912345678');
    expect(r.notes?.some((n) => n.includes('customers[].phone'))).toBe(true);
  });
});

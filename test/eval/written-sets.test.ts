import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendWritten, sameTextKey } from '../../scripts/append-written.js';
import {
  loadWrittenInjectionTexts,
  loadWrittenRouterRequests,
  WRITTEN_INJECTION,
  WRITTEN_ROUTER,
  WrittenSetError,
} from '../../scripts/written-sets.js';

describe('hand-written training sets', () => {
  it('load with every row naming its writer, ids unique and in order', () => {
    for (const rows of [loadWrittenRouterRequests(), loadWrittenInjectionTexts()]) {
      expect(rows.length).toBeGreaterThan(1000);
      const ids = rows.map((r) => Number(r.id.slice(2)));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
      expect(rows.every((r) => /^[a-z0-9-]+$/.test(r.hand))).toBe(true);
      // more than the two earlier rounds: the trainers can hold a hand out (--hand-cv)
      expect(new Set(rows.map((r) => r.hand)).size).toBeGreaterThan(4);
    }
  });

  it('no row appended since version 2 repeats a text already there (case, spacing and punctuation aside)', () => {
    // the earlier rounds (r2, r3) were written before the append script and keep their few repeats
    const check = (rows: ReadonlyArray<{ hand: string; text: string }>) => {
      const seen = new Set<string>();
      for (const r of rows) {
        const key = sameTextKey(r.text);
        if (r.hand !== 'r2' && r.hand !== 'r3') expect(seen.has(key), r.text).toBe(false);
        seen.add(key);
      }
    };
    check(loadWrittenRouterRequests().map((r) => ({ hand: r.hand, text: r.query })));
    check(loadWrittenInjectionTexts());
  });

  it('the fitted-only rows validate, continue the ids in order and repeat none of the texts', () => {
    const main = loadWrittenInjectionTexts();
    const r7 = loadWrittenInjectionTexts(join(WRITTEN_INJECTION, '../fit-only/injection-texts-r7.jsonl'));
    const r8 = loadWrittenInjectionTexts(join(WRITTEN_INJECTION, '../fit-only/injection-texts-r8.jsonl'));
    const r15 = loadWrittenInjectionTexts(join(WRITTEN_INJECTION, '../fit-only/injection-texts-r15.jsonl'));
    expect(r7.length).toBe(3598);
    expect(r8.length).toBe(1700);
    expect(Number(r7[0]!.id.slice(2))).toBe(Number(main.at(-1)!.id.slice(2)) + 1);
    expect(Number(r8[0]!.id.slice(2))).toBe(Number(r7.at(-1)!.id.slice(2)) + 1);
    expect(r15.length).toBe(1200);
    expect(r15.every((r) => r.channel === 'tool_output')).toBe(true);
    expect(Number(r15[0]!.id.slice(2))).toBe(Number(r8.at(-1)!.id.slice(2)) + 1);
    const seen = new Set(main.map((r) => sameTextKey(r.text)));
    for (const r of [...r7, ...r8, ...r15]) {
      expect(seen.has(sameTextKey(r.text)), r.text).toBe(false);
      seen.add(sameTextKey(r.text));
    }
  });
});

describe('appending a writer’s rows', () => {
  const scratch = () => {
    const dir = mkdtempSync(join(tmpdir(), 'twinline-written-'));
    const target = join(dir, 'router.jsonl');
    copyFileSync(WRITTEN_ROUTER, target);
    return { dir, target };
  };

  it('numbers new rows after the last id, names the hand, skips texts already there and updates the header', () => {
    const { dir, target } = scratch();
    const before = loadWrittenRouterRequests(target);
    const source = join(dir, 'new.jsonl');
    writeFileSync(
      source,
      [
        {
          label: 'quick',
          lang: 'en',
          style: 'terse',
          query: 'Move my 1:1 with Noor to Friday 10am, the blue room',
        },
        { label: 'readonly_fallback', lang: 'en', style: 'howto', query: before[0]!.query.toUpperCase() },
        {
          label: 'deep',
          lang: 'zh',
          style: 'formal',
          query: '梳理近三个月各部门的差旅费用，找出超标原因并提出管控建议',
        },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const result = appendWritten('router', 'test-hand', source, { target });
    expect(result).toMatchObject({ added: 2, duplicates: 1, rows: before.length + 2 });
    const after = loadWrittenRouterRequests(target);
    const last = Number(before.at(-1)!.id.slice(2));
    expect(after.slice(-2).map((r) => [r.hand, Number(r.id.slice(2))])).toEqual([
      ['test-hand', last + 1],
      ['test-hand', last + 2],
    ]);
  });

  it('a bad row stops the append with its file and line, and writes nothing', () => {
    const { dir, target } = scratch();
    const source = join(dir, 'bad.jsonl');
    writeFileSync(
      source,
      `${JSON.stringify({ label: 'quick', lang: 'en', style: 's', query: 'Cancel the 4pm sync with Ola' })}\n${JSON.stringify({ label: 'urgent', lang: 'en', style: 's', query: 'x' })}\n`,
    );
    const original = readFileSync(target, 'utf8');
    expect(() => appendWritten('router', 'test-hand', source, { target })).toThrow(WrittenSetError);
    expect(() => appendWritten('router', 'test-hand', source, { target })).toThrow(/bad\.jsonl:2/);
    expect(readFileSync(target, 'utf8')).toBe(original);
    writeFileSync(source, '{"label": "quick", \n');
    expect(() => appendWritten('router', 'test-hand', source, { target })).toThrow(/bad\.jsonl:1: not JSON/);
  });

  it('the injection set takes rows of its own schema; a dry run writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'twinline-written-'));
    const target = join(dir, 'injection.jsonl');
    copyFileSync(WRITTEN_INJECTION, target);
    const source = join(dir, 'new.jsonl');
    writeFileSync(
      source,
      JSON.stringify({
        label: 'benign',
        lang: 'en',
        channel: 'tool_output',
        kind: 'email',
        text: 'Hi Sam, please send the Q3 deck to Ingrid by Friday noon.',
      }),
    );
    expect(appendWritten('injection', 'test-hand', source, { target, dryRun: true })).toMatchObject({
      added: 1,
    });
    expect(readFileSync(target, 'utf8')).toBe(readFileSync(WRITTEN_INJECTION, 'utf8'));
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { segmentedText, wholeWords, wordTokens } from '../../src/core/index.js';
import { historyPrior, matchRules, normalizeRequest, requestContext, route } from '../../src/router/index.js';

const ruleIds = (q: string) => matchRules(normalizeRequest(q)).map((h) => h.id);

describe('Chinese keywords match whole words (Intl.Segmenter)', () => {
  it.each([
    ['审查一下这份合同', 'quick.zh.lookup'],
    ['检查一下报销单', 'quick.zh.lookup'],
    ['调查一下', 'quick.zh.lookup'],
    ['这个会议室太小了', 'quick.zh.book'],
  ])('%s does not fire %s', (q, id) => {
    expect(ruleIds(q)).not.toContain(id);
  });

  it.each([
    ['帮我查一下日程', 'quick.zh.lookup'],
    ['看一下我明天的会', 'quick.zh.lookup'],
    ['把下午的会议推迟到四点', 'quick.zh.reschedule'],
    ['改一下会议地点到3楼', 'quick.zh.edit'],
    ['订个会议室', 'quick.zh.book'],
    ['分析一下上季度的销售', 'deep.zh.analyse'],
    ['调查工单暴增的原因', 'deep.zh.investigate'],
  ])('%s fires %s', (q, id) => {
    expect(ruleIds(q)).toContain(id);
  });

  it('tokenises Latin words, digits and Han words; project_admin stays one word', () => {
    expect(wordTokens('把 weekly sync 推迟到 3 点, project_admin')).toEqual(
      expect.arrayContaining(['weekly', 'sync', '推迟', '3', 'project_admin']),
    );
    expect(segmentedText('审查一下')).toBe('|审查|一下|');
    expect(new RegExp(wholeWords(['查一下'])).test(segmentedText('审查一下'))).toBe(false);
    expect(new RegExp(wholeWords(['查一下'])).test(segmentedText('帮我查一下'))).toBe(true);
  });

  it('a whole-word match is always a substring match (never invents a keyword)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'查一下审帮我看会议室订个的了，a b'), maxLength: 16 }),
        (s) => {
          const whole = new RegExp(wholeWords(['查一下', '会议室'])).test(segmentedText(s));
          if (whole) expect(/查一下|会议室/.test(s)).toBe(true);
        },
      ),
    );
  });
});

describe('the request context families', () => {
  it('names head, question form, systems and urgency', () => {
    const f = requestContext(normalizeRequest('How many vacation days do I have left? asap')).features;
    expect(f).toEqual(expect.arrayContaining(['form:question', 'urgent', 'head:how']));
    const z = requestContext(normalizeRequest('把考勤和薪资数据汇总一下，尽快')).features;
    expect(z).toEqual(expect.arrayContaining(['sys:attendance', 'sys:salary', 'sys#:2', 'urgent']));
  });
});

describe('rules never contradict the result silently', () => {
  it('a rule leaning another way than the target comes with a reason', () => {
    for (const q of [
      '对比一下两个方案的利弊',
      'how should I write a good report',
      '怎么写一份好的分析报告',
    ]) {
      const d = route(q);
      const top = route(q, { explain: true }).features!.rules[0];
      if (top && top.lean !== d.target) expect(d.reason, q).toMatch(new RegExp(top.id.replace(/\./g, '\\.')));
      else expect(d.reason).toBeUndefined();
    }
  });

  it('a rule agreeing with the target has no reason attached', () => {
    const d = route('帮我把下午的会议推迟到四点');
    expect(d.target).toBe('quick');
    expect(d.reason).toBeUndefined();
  });
});

describe("the user's recent routes", () => {
  it('are a weak prior: empty without history, bounded, toward the lines used', () => {
    expect(historyPrior(undefined)).toEqual([]);
    expect(historyPrior([])).toEqual([]);
    const p = historyPrior(['quick', 'quick', 'quick', 'quick', 'deep']);
    expect(p.find((h) => h.lean === 'quick')!.weight).toBeGreaterThan(0);
    for (const h of historyPrior(Array(50).fill('deep'))) expect(h.weight).toBeLessThanOrEqual(0.6);
  });

  it('never turns a clear request into another line', () => {
    const q = '帮我把下午的会议推迟到四点';
    expect(route(q, { recent: Array(10).fill('deep') }).target).toBe('quick');
    const deep = '分析本季度三个项目的资源冲突并生成调整建议';
    expect(route(deep, { recent: Array(10).fill('quick') }).target).toBe('deep');
  });

  it('tips a close call toward the line the user keeps using', () => {
    const q = '整理一下客户资料';
    const base = route(q);
    const leaned = route(q, { recent: Array(10).fill('quick') });
    expect(leaned.scores.quick).toBeGreaterThanOrEqual(base.scores.quick);
  });
});

describe('the request head skips greetings, pleasantries and fillers', () => {
  const heads = (q: string) =>
    requestContext(normalizeRequest(q)).features.filter(
      (f) => f.startsWith('head:') || f.startsWith('chead:'),
    );

  it.each([
    [
      'Hi there, hope your week is going well! Could you move my 1:1 with Sam to Thursday? Thanks so much, Priya',
      'move',
    ],
    ['Good morning, please cancel the 3pm', 'cancel'],
    ['um so can you, no wait, actually cancel the 3pm', 'cancel'],
    ['Sorry to bother — quick q: approve Dev’s expense claim', 'approve'],
    ['王姐您好，打扰一下～推迟明天的周会', '推迟'],
  ])('%j is headed by %j', (q, head) => {
    expect(heads(q)).toContain(`head:${head}`);
  });

  it('each of the first clauses gives its first content word, so an ask after background shows its verb', () => {
    expect(heads('Long week. Anyway, mark Jo as sick for Friday')).toEqual(
      expect.arrayContaining(['chead:mark']),
    );
  });

  it('a request that is only pleasantries has no head', () => {
    expect(heads('Thanks so much, have a great weekend!')).toEqual([]);
    expect(heads('谢谢！')).toEqual([]);
  });

  it('numbers with separators stay one clause', () => {
    expect(heads('bump the amount to 48,000 and the stage to 1:1')).toEqual(['head:bump', 'chead:bump']);
  });
});

describe('word offsets', () => {
  it('every word sits at its offset in the text, in order', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom('审查一下', '把会议推迟到', 'project_admin', ' ', '，', '3点', 'move'),
            fc.string(),
          ),
          {
            maxLength: 12,
          },
        ),
        (parts) => {
          const text = parts.join('');
          const starts: number[] = [];
          const words = wordTokens(text, starts);
          expect(starts).toHaveLength(words.length);
          words.forEach((w, i) => {
            expect(text.slice(starts[i]!, starts[i]! + w.length)).toBe(w);
            if (i > 0) expect(starts[i]!).toBeGreaterThan(starts[i - 1]!);
          });
          expect(wordTokens(text)).toEqual(words);
        },
      ),
      { numRuns: 200 },
    );
  });
});

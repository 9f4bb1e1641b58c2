import { describe, expect, it } from 'vitest';
import { DEFAULT_ROUTE_THRESHOLD, type RouteTarget, route } from '../../src/router/index.js';

// The routing examples of docs/router.md first, then greetings, noise and the 对比 hard case.
const TABLE: ReadonlyArray<readonly [string, RouteTarget]> = [
  ['帮我把下午的会议推迟到四点', 'quick'],
  ['查一下上周的考勤异常', 'quick'],
  ['给某客户生成一段续费提醒话术', 'quick'],
  ['查一下日历', 'quick'],
  ['开个临时会议', 'quick'],
  ['查找过去三十天所有延迟交付的订单，分析主要原因，并输出一份分部门的影响报告', 'deep'],
  ['分析本季度三个项目的资源冲突并生成调整建议', 'deep'],
  ['对比一下两个方案的利弊', 'quick'],
  ['Reschedule my 1:1 with Dana to Thursday', 'quick'],
  ['cancel tomorrow’s standup', 'quick'],
  ['remind me to send the Initech quote at 5pm', 'quick'],
  ['Investigate why support tickets doubled last quarter and write a report by product line', 'deep'],
  ['把 weekly sync 推迟到周五下午', 'quick'],
  ['你好', 'readonly_fallback'],
  ['您好！', 'readonly_fallback'],
  ['hello', 'readonly_fallback'],
  ['thanks!', 'readonly_fallback'],
  ['谢谢你', 'readonly_fallback'],
  ['', 'readonly_fallback'],
  ['   ', 'readonly_fallback'],
  ['？？？', 'readonly_fallback'],
  ['😂😂', 'readonly_fallback'],
  ['asdkjhqwe', 'readonly_fallback'],
  ['讲个笑话吧', 'readonly_fallback'],
  ['write a poem about autumn', 'readonly_fallback'],
  ['分析', 'readonly_fallback'],
  ['怎么写一份好的分析报告', 'readonly_fallback'],
];

describe('route: seed examples and fallbacks', () => {
  it.each(TABLE)('%s → %s', (query, target) => {
    const d = route(query);
    expect(d.target).toBe(target);
    if (target !== 'readonly_fallback')
      expect(d.scores[target]).toBeGreaterThanOrEqual(DEFAULT_ROUTE_THRESHOLD);
    else expect(Math.max(d.scores.deep, d.scores.quick)).toBeLessThan(DEFAULT_ROUTE_THRESHOLD);
  });

  it('names the strongest matching rule, or null', () => {
    expect(route('帮我把下午的会议推迟到四点').rule).toBe('quick.zh.reschedule');
    expect(route('分析本季度三个项目的资源冲突并生成调整建议').rule).toMatch(/^deep\./);
    expect(route('讲个笑话吧').rule).toBeNull();
  });

  it('is insensitive to full-width characters and case', () => {
    expect(route('ＲＥＳＣＨＥＤＵＬＥ my standup to 4pm').target).toBe('quick');
  });
});

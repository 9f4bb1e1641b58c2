import { segmentedText, wholeWords } from '../core/index.js';
import type { RouteClass, RuleHit } from './types.js';

/**
 * A routing rule: a pattern over the normalised request and the class it leans toward. The weight
 * is a log-likelihood ratio added to that class's log-probability (docs/router.md): ~1 is a nudge
 * the classifier can overrule, ~2.5 lifts an undecided classifier over the threshold, ~4 is
 * near-decisive.
 */
export interface RouteRule {
  id: string;
  lean: RouteClass;
  weight: number;
  pattern: RegExp;
  /**
   * What the pattern reads: `text` is the normalised request (English rules, `\b` bounded);
   * `words` is the request as its words between `|` (`segmentedText`), so a Chinese keyword
   * matches whole words only — "审查一下" does not fire a 查一下 rule.
   */
  on?: 'text' | 'words';
}

const escapeRe = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A Chinese rule over `segmentedText`: keyword groups in order, adjacent (or with up to `gap`
 * characters between them), starting at the start of a word and ending at the end of one.
 */
function zh(groups: ReadonlyArray<readonly string[]>, gap = 0): RegExp {
  const group = (g: readonly string[]) => `(?:${g.map((w) => [...w].map(escapeRe).join('\\|?')).join('|')})`;
  const between = gap > 0 ? `[^]{0,${gap}}` : '\\|?';
  return new RegExp(`(?<=\\|)${groups.map(group).join(between)}(?=\\|)`);
}

/**
 * Office-work systems. Naming two or more in one request is the "cross-system reference" the
 * seed treats as a deep-line signal: joining data across systems is multi-hop work.
 */
const SYSTEMS: ReadonlyArray<readonly [string, RegExp]> = [
  ['calendar', /日程|日历|会议(?!室)|calendar|meetings?\b/],
  ['attendance', /考勤|打卡|加班|请假|排班|attendance|overtime|leave\b|shifts?\b/],
  ['sales', /销售|订单|业绩|回款|sales|orders?\b|revenue|pipeline/],
  ['customers', /客户|crm|customers?\b|accounts?\b|clients?\b/],
  ['tickets', /工单|故障单|tickets?\b|incidents?\b/],
  ['billing', /账单|发票|计费|付款|billing|invoices?\b|payments?\b/],
  ['salary', /薪资|薪酬|工资|绩效|salar(y|ies)|payroll|compensation/],
  ['projects', /项目|配置|排期|projects?\b|config(uration)?s?\b|roadmap/],
  ['documents', /文档|合同|知识库|documents?\b|contracts?\b|docs?\b/],
];

/** Counts how many distinct office systems the request names. */
export function systemsMentioned(normalized: string): string[] {
  return SYSTEMS.filter(([, re]) => re.test(normalized)).map(([name]) => name);
}

/** The rule table. Patterns run on normalised (NFKC, lower-case) text. */
export const ROUTE_RULES: readonly RouteRule[] = [
  // deep: analysis verbs and report outputs
  {
    id: 'deep.zh.analyse',
    lean: 'deep',
    weight: 2.0,
    pattern: zh([['分析', '剖析', '归因', '复盘']]),
    on: 'words',
  },
  {
    id: 'deep.zh.investigate',
    lean: 'deep',
    weight: 2.0,
    pattern: new RegExp(
      `${wholeWords(['调查', '根因', '追查', '排查'])}|${zh([['排查', '找出', '查找', '找找'], ['原因']], 12).source}`,
    ),
    on: 'words',
  },
  {
    id: 'deep.zh.report',
    lean: 'deep',
    weight: 2.5,
    pattern: zh(
      [
        ['生成', '输出', '出', '写', '形成', '整理', '做'],
        ['报告', '报表', '分析', '建议', '方案', '规划', '计划'],
      ],
      14,
    ),
    on: 'words',
  },
  {
    id: 'deep.zh.aggregate',
    lean: 'deep',
    weight: 1.5,
    pattern: new RegExp(
      `${wholeWords(['汇总', '评估', '趋势', '对账', '盘点', '梳理'])}|${zh([['统计'], ['趋势', '变化', '分布']], 14).source}`,
    ),
    on: 'words',
  },
  // 对比 alone is a weak lean: "对比一下两个方案的利弊" may want a quick table (docs/router.md, "Why not rules first, decisively?")
  {
    id: 'deep.zh.compare',
    lean: 'deep',
    weight: 0.8,
    pattern: zh([['对比', '比较', '横向对照']]),
    on: 'words',
  },
  {
    id: 'deep.zh.multi-step',
    lean: 'deep',
    weight: 1.5,
    pattern: zh(
      [
        ['并', '并且', '然后', '再', '同时', '最后'],
        ['分析', '生成', '输出', '给出', '提出', '评估', '汇总', '找出', '对比', '告诉我'],
      ],
      2,
    ),
    on: 'words',
  },
  {
    id: 'deep.en.analyse',
    lean: 'deep',
    weight: 2.0,
    pattern: /\banaly[sz](e|es|is|ing)\b|\broot cause|\bbreak ?down by\b/,
  },
  {
    id: 'deep.en.investigate',
    lean: 'deep',
    weight: 2.0,
    pattern: /\binvestigat(e|ion)|\bdig into\b|\bfigure out why\b/,
  },
  {
    id: 'deep.en.report',
    lean: 'deep',
    weight: 2.5,
    pattern: /\b(generate|produce|write|build|prepare|create)\b.{0,30}\breport\b/,
  },
  {
    id: 'deep.en.aggregate',
    lean: 'deep',
    weight: 1.5,
    pattern: /\b(summari[sz]e|assess|evaluate|aggregate|trends?|forecast)\b/,
  },
  { id: 'deep.en.compare', lean: 'deep', weight: 0.8, pattern: /\bcompar(e|ing|ison)\b/ },
  // quick: single operations on one thing
  {
    id: 'quick.zh.reschedule',
    lean: 'quick',
    weight: 2.5,
    pattern: new RegExp(
      `${
        zh([
          ['推迟', '延后', '提前', '改', '挪', '调整', '换'],
          ['到', '为', '成', '至'],
        ]).source
      }|${wholeWords(['改期'])}`,
    ),
    on: 'words',
  },
  {
    id: 'quick.zh.edit',
    lean: 'quick',
    weight: 1.5,
    pattern: zh([
      [
        '改一下',
        '改个',
        '换一下',
        '换个',
        '更新一下',
        '修改',
        '加到',
        '加上',
        '移出',
        '标成',
        '标记为',
        '设为',
        '调高',
        '调低',
        '登记',
      ],
    ]),
    on: 'words',
  },
  {
    id: 'quick.zh.cancel',
    lean: 'quick',
    weight: 2.0,
    pattern: new RegExp(`${wholeWords(['取消', '撤销'])}|${zh([['关闭'], ['工单', '会议']]).source}`),
    on: 'words',
  },
  {
    id: 'quick.zh.lookup',
    lean: 'quick',
    weight: 1.5,
    pattern: zh([['查一下', '查下', '看一下', '看下', '查查', '帮我查', '查询一下', '查一查']]),
    on: 'words',
  },
  {
    id: 'quick.zh.remind',
    lean: 'quick',
    weight: 2.5,
    pattern: zh([['提醒我', '设个提醒', '设置提醒', '叫我']]),
    on: 'words',
  },
  {
    id: 'quick.zh.send',
    lean: 'quick',
    weight: 1.5,
    pattern: zh([['发一下', '发给', '转给', '转发', '抄送']]),
    on: 'words',
  },
  {
    id: 'quick.zh.book',
    lean: 'quick',
    weight: 2.0,
    pattern: new RegExp(
      `${zh([['订', '预订', '预约'], ['一个', '个'], ['会议室']]).source}|${zh([['订', '预订', '预约'], ['会议室']]).source}|${wholeWords(['预约', '预订'])}|${
        zh([
          ['新建', '创建'],
          ['一个', '个'],
          ['会议', '日程', '工单'],
        ]).source
      }|${
        zh([
          ['新建', '创建'],
          ['会议', '日程', '工单'],
        ]).source
      }`,
    ),
    on: 'words',
  },
  {
    id: 'quick.zh.draft',
    lean: 'quick',
    weight: 1.5,
    pattern: zh([
      ['生成', '写', '拟'],
      ['一段', '一条', '一封', '一句'],
    ]),
    on: 'words',
  },
  {
    id: 'quick.en.reschedule',
    lean: 'quick',
    weight: 2.5,
    pattern: /\b(reschedule|postpone|push back|move)\b.{0,40}\bto\b/,
  },
  { id: 'quick.en.cancel', lean: 'quick', weight: 2.0, pattern: /\bcancel\b/ },
  {
    id: 'quick.en.lookup',
    lean: 'quick',
    weight: 1.5,
    pattern: /\b(check|look up|what'?s the status|show me)\b/,
  },
  { id: 'quick.en.remind', lean: 'quick', weight: 2.5, pattern: /\bremind me\b|\bset a reminder\b/ },
  { id: 'quick.en.send', lean: 'quick', weight: 1.5, pattern: /\b(send|forward)\b/ },
  { id: 'quick.en.book', lean: 'quick', weight: 2.0, pattern: /\bbook (a|the)\b|\bschedule a\b/ },
  // read-only: a bare greeting or thanks, nothing else
  {
    id: 'readonly.greeting',
    lean: 'readonly_fallback',
    weight: 4.0,
    pattern:
      /^(你好|您好|嗨|哈喽|在吗|在不在|早上好|早安|早|晚上好|下午好|谢谢|谢谢你|多谢|辛苦了|再见|拜拜|hi|hello|hey|thanks|thank you|good (morning|afternoon|evening)|bye|ok|okay|好的|嗯)[\s!！。.~～,，?？呀啊哦呢]*$/,
  },
];

/** Rule id of the cross-system signal (two or more office systems named). */
export const CROSS_SYSTEM_RULE: RouteRule = {
  id: 'deep.cross-system',
  lean: 'deep',
  weight: 1.5,
  pattern: /$^/,
};

/**
 * Every rule that matches, strongest first. At most one hit per rule id. `segmented` is
 * `segmentedText(normalized)` when the caller already has it; `crossSystem` adds the office
 * table's "two or more office systems named" signal (on by default with that table).
 */
export function matchRules(
  normalized: string,
  rules: readonly RouteRule[] = ROUTE_RULES,
  segmented?: string,
  crossSystem: boolean = rules === ROUTE_RULES,
): RuleHit[] {
  const hits: RuleHit[] = [];
  let words = segmented;
  for (const r of rules) {
    if (r.on === 'words' && words === undefined) words = segmentedText(normalized);
    const subject = r.on === 'words' ? words! : normalized;
    if (r.pattern.test(subject)) hits.push({ id: r.id, lean: r.lean, weight: r.weight });
  }
  if (crossSystem && systemsMentioned(normalized).length >= 2) {
    hits.push({ id: CROSS_SYSTEM_RULE.id, lean: 'deep', weight: CROSS_SYSTEM_RULE.weight });
  }
  return hits.sort((a, b) => b.weight - a.weight);
}

/**
 * Surface augmentations for the injection corpus: the obfuscations attackers use (leetspeak,
 * spaced letters, odd casing, invisible characters, lookalike letters) and harmless noise
 * (typos, politeness, fillers), applied to attacks and benign texts alike so that no surface
 * form is a label by itself.
 */

export type Rand = () => number;

export const pick = <T>(rand: Rand, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

const LEET: Record<string, string[]> = {
  a: ['4', '@'],
  e: ['3'],
  i: ['1', '!'],
  o: ['0'],
  s: ['5', '$'],
  t: ['7'],
  l: ['1'],
  g: ['9'],
};

export function leet(rand: Rand, s: string, rate = 0.6): string {
  return s.replace(/[aeiostlg]/gi, (c) => {
    const alts = LEET[c.toLowerCase()];
    return alts && rand() < rate ? pick(rand, alts) : c;
  });
}

export function spaced(rand: Rand, s: string): string {
  // space out one or two words (the longest), the way attackers split a keyword
  const words = s.split(' ');
  const order = words.map((w, i) => [w.length, i] as const).sort((a, b) => b[0] - a[0]);
  const n = rand() < 0.5 ? 1 : 2;
  const sep = pick(rand, [' ', '-', '.', '_', ' ']);
  for (const [, i] of order.slice(0, n)) words[i] = [...words[i]!].join(sep);
  return words.join(' ');
}

export function spacedHan(rand: Rand, s: string): string {
  const sep = pick(rand, [' ', '·', '-', '*']);
  const start = Math.floor(rand() * Math.max(1, s.length - 6));
  return s.slice(0, start) + [...s.slice(start, start + 6)].join(sep) + s.slice(start + 6);
}

export function oddCase(rand: Rand, s: string): string {
  const mode = rand();
  if (mode < 0.3) return s.toUpperCase();
  if (mode < 0.6) return [...s].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join('');
  return s.replace(/\b\w/g, (c) => c.toUpperCase());
}

const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];
export function invisible(rand: Rand, s: string): string {
  return [...s].map((c) => (c !== ' ' && rand() < 0.25 ? c + pick(rand, INVISIBLE) : c)).join('');
}

const LOOKALIKE: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', i: 'і' };
export function lookalike(rand: Rand, s: string): string {
  return s.replace(/[aeopcxi]/g, (c) => (rand() < 0.4 ? LOOKALIKE[c]! : c));
}

export function typo(rand: Rand, s: string): string {
  const chars = [...s];
  const n = 1 + Math.floor(rand() * 2);
  for (let k = 0; k < n && chars.length > 4; k++) {
    const i = 1 + Math.floor(rand() * (chars.length - 2));
    if (!/[a-z]/i.test(chars[i]!)) continue;
    const op = rand();
    if (op < 0.4) chars.splice(i, 1);
    else if (op < 0.7) [chars[i], chars[i - 1]] = [chars[i - 1]!, chars[i]!];
    else chars.splice(i, 0, chars[i]!);
  }
  return chars.join('');
}

const EN_OPEN = [
  '',
  '',
  '',
  'hey, ',
  'ok so ',
  'Hi! ',
  'Quick question: ',
  'Listen, ',
  'Alright. ',
  'um, ',
  'Please, ',
  'btw ',
];
const EN_CLOSE = ['', '', '', ' thanks', ' pls', ' :)', ' asap', '!', ' ok?', ' thx', '.'];
const ZH_OPEN = ['', '', '', '那个，', '你好，', '嗯，', '麻烦', '请', '对了，', '喂，', '听好，'];
const ZH_CLOSE = ['', '', '', '，谢谢', '，快点', '。', '！', '哈', '，好吗', '，拜托了'];

export function chatter(rand: Rand, s: string, lang: 'en' | 'zh'): string {
  return lang === 'en'
    ? `${pick(rand, EN_OPEN)}${s}${pick(rand, EN_CLOSE)}`
    : `${pick(rand, ZH_OPEN)}${s}${pick(rand, ZH_CLOSE)}`;
}

/** Replaces a few Chinese words with their English equivalents (code-switching, "mixed"). */
const CODE_SWITCH: ReadonlyArray<readonly [string, string]> = [
  ['忽略', 'ignore'],
  ['指令', 'instructions'],
  ['系统提示词', 'system prompt'],
  ['管理员', 'admin'],
  ['权限', 'permission'],
  ['审核', 'review'],
  ['审批', 'approval'],
  ['发送', 'send'],
  ['转发', 'forward'],
  ['邮件', 'email'],
  ['报告', 'report'],
  ['会议', 'meeting'],
  ['客户', 'customer'],
  ['密码', 'password'],
  ['助手', 'assistant'],
  ['规则', 'rules'],
  ['配置', 'config'],
];
export function codeSwitch(rand: Rand, s: string): string {
  let out = s;
  for (const [zh, en] of CODE_SWITCH) if (out.includes(zh) && rand() < 0.6) out = out.replace(zh, ` ${en} `);
  return out.replace(/\s+/g, ' ').trim();
}

/** One random obfuscation suited to the text's language; `none` about half the time. */
export function obfuscate(rand: Rand, s: string, lang: 'en' | 'zh'): { text: string; how: string } {
  const r = rand();
  if (r < 0.5) return { text: s, how: 'none' };
  if (lang === 'zh') {
    if (r < 0.65) return { text: spacedHan(rand, s), how: 'spacing' };
    if (r < 0.8) return { text: codeSwitch(rand, s), how: 'code-switch' };
    if (r < 0.9) return { text: invisible(rand, s), how: 'invisible' };
    return { text: s.replace(/[，。]/g, (c) => (c === '，' ? ',' : '.')), how: 'punct' };
  }
  if (r < 0.62) return { text: leet(rand, s), how: 'leet' };
  if (r < 0.72) return { text: spaced(rand, s), how: 'spacing' };
  if (r < 0.82) return { text: oddCase(rand, s), how: 'casing' };
  if (r < 0.88) return { text: invisible(rand, s), how: 'invisible' };
  if (r < 0.93) return { text: lookalike(rand, s), how: 'lookalike' };
  return { text: typo(rand, s), how: 'typo' };
}

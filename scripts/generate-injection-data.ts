/**
 * Generates the injection scorer's training corpus, data/injection/corpus.generated.jsonl,
 * written for this project (scripts/injection-corpus/): direct attacks a user types and
 * instructions hidden in documents, in English and Chinese, by technique, against everyday
 * requests, hard benign requests that use an attack's words innocently, and benign documents
 * of every shape (email, web page, HTML, JSON, table, code, calendar entry, ticket, review,
 * Markdown, XML, extracted PDF text). Augmented: obfuscation (leetspeak, spacing, casing,
 * invisible characters, lookalikes, typos), chatter, code-switching, attacks buried after a
 * normal request, base64 carriers. Seeded, so the file is reproducible:
 *   npx tsx scripts/generate-injection-data.ts [--seed 11] [--out data/injection/corpus.generated.jsonl]
 * The first line is a header record saying the file is generated.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  DIRECT,
  HIJACK,
  INDIRECT,
  type Lang,
  PERSONA_PARTS,
  SLOTS,
  type Slots,
} from './injection-corpus/attacks.js';
import {
  chatter,
  codeSwitch,
  obfuscate,
  oddCase,
  pick,
  type Rand,
  typo,
} from './injection-corpus/augment.js';
import { DOC_SENTENCES, GENERAL, HARD_BENIGN, HARD_SLOTS, RECORD_FIELDS } from './injection-corpus/benign.js';

const args = process.argv.slice(2);
const argValue = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const SEED = Number(argValue('--seed', '11'));
const OUT = argValue('--out', 'data/injection/corpus.generated.jsonl');
const ROUTER_DATA = argValue(
  '--router-data',
  resolve(import.meta.dirname, '../data/router/requests.generated.jsonl'),
);

function mulberry32(seed: number): Rand {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(SEED);
const one = <T>(xs: readonly T[]) => pick(rand, xs);

export interface CorpusRow {
  id: string;
  text: string;
  label: 'injection' | 'benign';
  lang: 'en' | 'zh' | 'mixed';
  channel: 'user_input' | 'tool_output';
  /** technique or benign kind; `template` is the family held out together in validation */
  kind: string;
  template: string;
}

function fill(template: string, slots: Slots, depth = 0): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) => {
    const values = slots[name];
    if (!values) return m;
    const v = one(values);
    return depth < 3 ? fill(v, slots, depth + 1) : v;
  });
}

const capitalise = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);
const tidy = (s: string, lang: Lang) =>
  lang === 'en'
    ? capitalise(
        s
          .replace(/\s+([,.;:!?])/g, '$1')
          .replace(/\.\./g, '.')
          .replace(/ {2,}/g, ' ')
          .trim(),
      )
    : s.replace(/。。/g, '。').trim();

const rows: CorpusRow[] = [];
let seq = 0;
const seenTexts = new Set<string>();
/** Adds a row unless the same text is already in (duplicates would weigh a template many times). */
function add(row: Omit<CorpusRow, 'id'>): void {
  if (seenTexts.has(row.text)) return;
  seenTexts.add(row.text);
  rows.push({ id: `g${String(++seq).padStart(6, '0')}`, ...row });
}

// ---------- benign user requests ----------
interface RouterRow {
  query: string;
  lang: 'zh' | 'en' | 'mixed';
  source: string;
}
const officeRequests = readFileSync(ROUTER_DATA, 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.includes('"_generated"'))
  .map((l) => JSON.parse(l) as RouterRow);

function officeRequest(lang: Lang): RouterRow {
  for (;;) {
    const r = one(officeRequests);
    if (ROUTER_ATTACKS.test(r.query)) continue;
    if (r.lang === lang || (lang === 'en' && r.lang === 'mixed' && rand() < 0.2)) return r;
  }
}

// the router's set files a few bare attacks under read-only ("ignore previous instructions": the
// router answers them without tools); as user input they are attacks, so they are left out here
const ROUTER_ATTACKS = /ignore previous|忽略之前/i;
for (let i = 0; i < 1800; i++) {
  const r = one(officeRequests);
  if (ROUTER_ATTACKS.test(r.query)) continue;
  add({
    text: r.query,
    label: 'benign',
    lang: r.lang,
    channel: 'user_input',
    kind: 'office',
    template: `office:${r.source}`,
  });
}
for (const lang of ['en', 'zh'] as const) {
  const g = GENERAL[lang];
  for (let i = 0; i < 900; i++) {
    const ti = Math.floor(rand() * g.templates.length);
    let text = tidy(fill(g.templates[ti]!, g.slots), lang);
    if (rand() < 0.4) text = chatter(rand, text, lang);
    if (rand() < 0.1) text = lang === 'en' ? typo(rand, text) : text;
    add({
      text,
      label: 'benign',
      lang,
      channel: 'user_input',
      kind: 'general',
      template: `general:${lang}:${ti}`,
    });
  }
  const hard = HARD_BENIGN[lang];
  for (let i = 0; i < 1400; i++) {
    const ti = Math.floor(rand() * hard.length);
    let text = tidy(fill(hard[ti]!, HARD_SLOTS[lang]), lang);
    if (rand() < 0.35) text = chatter(rand, text, lang);
    if (rand() < 0.25) {
      // obfuscation is not a label: the same surface tricks on harmless text
      const o = obfuscate(rand, text, lang);
      text = o.text;
    }
    if (rand() < 0.2) {
      // two benign requests in one message (the shape of a buried attack, without the attack)
      text = `${officeRequest(lang).query}${lang === 'en' ? ` ${one(['Also,', 'And', 'Oh, and', 'By the way,', 'P.S.'])} ` : one(['另外，', '还有，', '顺便', '对了，'])}${lang === 'en' ? text[0]!.toLowerCase() + text.slice(1) : text}`;
    }
    add({
      text,
      label: 'benign',
      lang,
      channel: 'user_input',
      kind: 'hard-benign',
      template: `hard:${lang}:${ti}`,
    });
  }
}

// ---------- direct attacks (user_input) ----------
const BURY_EN = [
  'Also,',
  'And then',
  'Oh, and',
  'By the way,',
  'P.S.',
  'One more thing:',
  'After that,',
  'Once that is done,',
];
const BURY_ZH = ['另外，', '还有，', '顺便说一句，', '对了，', '弄完之后，', '再说一件事：', '附：'];
for (const lang of ['en', 'zh'] as const) {
  for (const [technique, templates] of Object.entries(DIRECT[lang])) {
    const n = technique === 'override' ? 900 : 600;
    for (let i = 0; i < n; i++) {
      const ti = Math.floor(rand() * templates.length);
      let text = tidy(fill(templates[ti]!, SLOTS[lang]), lang);
      let kind = technique;
      let outLang: CorpusRow['lang'] = lang;
      const o = obfuscate(rand, text, lang);
      text = o.text;
      if (o.how === 'code-switch') outLang = 'mixed';
      if (o.how !== 'none') kind += `+${o.how}`;
      const r = rand();
      if (r < 0.25) {
        // buried after a normal request
        const lead = officeRequest(lang).query;
        text = `${lead}${lang === 'en' ? ` ${one(BURY_EN)} ${text[0]!.toLowerCase()}${text.slice(1)}` : `${one(BURY_ZH)}${text}`}`;
        kind += '+buried';
      } else if (r < 0.45) {
        text = chatter(rand, text, lang);
      } else if (r < 0.48 && lang === 'en' && o.how === 'none') {
        text = `${one(['Decode this and follow it:', 'Run the instructions in this base64:', 'Here is my request, base64-encoded:'])} ${Buffer.from(text).toString('base64')}`;
        kind += '+base64';
      }
      add({
        text,
        label: 'injection',
        lang: outLang,
        channel: 'user_input',
        kind,
        template: `direct:${lang}:${technique}:${ti}`,
      });
    }
  }
}

// persona jailbreaks from parts
for (const lang of ['en', 'zh'] as const) {
  const p = PERSONA_PARTS[lang];
  for (let i = 0; i < 900; i++) {
    const parts = [one(p.intro).replace('{c}', one(p.character))];
    if (rand() < 0.6) parts.push(one(p.traits));
    if (rand() < 0.6) parts.push(one(p.free));
    if (rand() < 0.8) parts.push(one(p.ask));
    if (parts.length === 1) parts.push(one(p.ask));
    add({
      text: parts.join(lang === 'en' ? ' ' : ''),
      label: 'injection',
      lang,
      channel: 'user_input',
      kind: 'persona-jailbreak',
      template: `persona:${lang}:${parts.length}`,
    });
  }
}

// ---------- documents (tool_output) ----------
const DOC_KINDS = [
  'email',
  'html',
  'json',
  'table',
  'code',
  'calendar',
  'ticket',
  'review',
  'markdown',
  'xml',
  'pdf',
  'web',
  'chat',
] as const;
type DocKind = (typeof DOC_KINDS)[number];

function sentences(lang: Lang, n: number): string[] {
  return Array.from({ length: n }, () => one(DOC_SENTENCES[lang]));
}

const esc = (s: string) => JSON.stringify(s).slice(1, -1);

/** Builds one document; `attack` (if any) is placed at `where` in its body. */
function documentOf(kind: DocKind, lang: Lang, attack: string | undefined, where: number): string {
  const n = 2 + Math.floor(rand() * 6);
  const body = sentences(lang, n);
  if (attack !== undefined) body.splice(Math.round(where * body.length), 0, attack);
  const f = RECORD_FIELDS[lang];
  switch (kind) {
    case 'email': {
      const subj =
        lang === 'en'
          ? one(['Invoice', 'Update', 'Reminder', 'Re: meeting', 'Quick favour', 'Your order', 'Fwd: notes'])
          : one(['发票', '更新', '提醒', '回复：会议', '帮个忙', '您的订单', '转发：纪要']);
      const sign =
        lang === 'en'
          ? one(['Best, Ana', 'Regards, Tom', 'Thanks, Priya', '— Facilities', 'Cheers, Sam'])
          : one(['安娜', '汤姆', '谢谢，普丽娅', '——行政部', '小孙']);
      return `${lang === 'en' ? 'Subject' : '主题'}: ${subj}\n\n${body.join(rand() < 0.5 ? ' ' : '\n')}\n\n${sign}`;
    }
    case 'html':
      return `<html><body><h1>${body[0]}</h1>${body
        .slice(1)
        .map((s) => (s === attack && s.startsWith('<') ? s : `<p>${s}</p>`))
        .join('')}</body></html>`;
    case 'web':
      return body.join(' ');
    case 'json': {
      const obj: Record<string, unknown> = {};
      for (const s of body) obj[one(f.keys)] = s;
      if (rand() < 0.5) obj[one(f.keys)] = one(f.values);
      return rand() < 0.3 ? JSON.stringify({ status: 'ok', data: [obj] }) : JSON.stringify(obj);
    }
    case 'table': {
      const head = lang === 'en' ? 'id,name,amount,comment' : '编号,名称,金额,备注';
      return [
        head,
        ...body.map(
          (s, i) => `${i + 1},${one(f.values)},${Math.floor(rand() * 9000)},"${s.replace(/"/g, "'")}"`,
        ),
      ].join('\n');
    }
    case 'code':
      return `# ${one(['utils.py', 'report.py', 'main.ts', 'handler.go'])}\n${body.map((s) => `# ${s.replace(/\n/g, ' ')}`).join('\n')}\ndef ${one(['add', 'total', 'fetch_rows', 'parse'])}(a, b):\n    return a + b\n`;
    case 'calendar':
      return `${lang === 'en' ? 'Event' : '日程'}: ${one(f.values)}\n${lang === 'en' ? 'Description' : '说明'}: ${body.join(' ')}`;
    case 'ticket':
      return `${lang === 'en' ? 'Ticket' : '工单'} #${100 + Math.floor(rand() * 9000)} ${lang === 'en' ? 'reporter comment' : '用户留言'}: ${body.join(' ')}`;
    case 'review':
      return `${one(lang === 'en' ? ['★★★★★', 'Great product!', 'Three stars.', 'Not bad.'] : ['五星好评！', '还行。', '三星。', '东西不错。'])} ${body.join(' ')}`;
    case 'markdown':
      return `## ${body[0]}\n${body
        .slice(1)
        .map((s) => (s === attack ? `\n> ${s}` : `- ${s}`))
        .join('\n')}`;
    case 'xml':
      return `<records>${body.map((s, i) => `<record><id>${i + 1}</id><comment>${s}</comment></record>`).join('')}</records>`;
    case 'pdf':
      return `${lang === 'en' ? 'Page' : '第'} ${1 + Math.floor(rand() * 40)}${lang === 'en' ? '' : ' 页'} ... ${body.join(' ')} ...`;
    case 'chat':
      return body.map((s) => `${one(['Dana', 'Omar', 'Li', 'Priya', '小王', '老李'])}: ${s}`).join('\n');
  }
}

const INDIRECT_WEIGHT: Record<string, number> = {
  addressed: 1.2,
  template: 0.6,
  delimiter: 0.6,
  comment: 0.6,
  plain: 1.0,
};
for (const lang of ['en', 'zh'] as const) {
  for (const [technique, templates] of Object.entries(INDIRECT[lang])) {
    const n = Math.round(1100 * INDIRECT_WEIGHT[technique]!);
    for (let i = 0; i < n; i++) {
      const ti = Math.floor(rand() * templates.length);
      let attack = tidy(fill(templates[ti]!, SLOTS[lang]), lang);
      let kind = technique;
      const o = obfuscate(rand, attack, lang);
      if (o.how !== 'none' && rand() < 0.5) {
        attack = o.text;
        kind += `+${o.how}`;
      }
      if (lang === 'en' && rand() < 0.1) attack = oddCase(rand, attack);
      const docKind = technique === 'comment' ? one(['html', 'web', 'markdown'] as const) : one(DOC_KINDS);
      const where = one([0, 0.5, 1, 1, 0.5]);
      let text = documentOf(docKind, lang, attack, where);
      if (docKind === 'json' || docKind === 'table') text = text.replace(esc(attack), esc(attack));
      add({
        text,
        label: 'injection',
        lang: o.how === 'code-switch' ? 'mixed' : lang,
        channel: 'tool_output',
        kind: `${kind}@${docKind}`,
        template: `indirect:${lang}:${technique}:${ti}`,
      });
    }
  }
  const hj = HIJACK[lang];
  for (let i = 0; i < 1400; i++) {
    const ti = Math.floor(rand() * hj.templates.length);
    const attack = tidy(fill(hj.templates[ti]!, hj.slots), lang);
    const docKind = one(DOC_KINDS);
    const text = documentOf(docKind, lang, attack, one([0, 0.5, 1, 1]));
    add({
      text,
      label: 'injection',
      lang,
      channel: 'tool_output',
      kind: `hijack@${docKind}`,
      template: `hijack:${lang}:${ti}`,
    });
  }
  for (let i = 0; i < 3600; i++) {
    const docKind = one(DOC_KINDS);
    let text = documentOf(docKind, lang, undefined, 0);
    if (rand() < 0.08) text = codeSwitch(rand, text);
    add({
      text,
      label: 'benign',
      lang,
      channel: 'tool_output',
      kind: `document@${docKind}`,
      template: `doc:${lang}:${docKind}`,
    });
  }
  // structured records the office tools return: addresses, links, accounts and IDs are the
  // normal content of tool output, not a sign of exfiltration
  for (let i = 0; i < 1500; i++) {
    const people = ['ana', 'li.wei', 'omar.k', 'priya', 'tom.b', 'zhang.san', 'maria.r'];
    const mail = () =>
      `${one(people)}@${one(['corp.example', 'acme.example', 'globex.example', 'partner.example'])}`;
    const kinds = [
      () => ({
        title: one(RECORD_FIELDS[lang].values),
        start: `2026-0${1 + Math.floor(rand() * 9)}-1${Math.floor(rand() * 9)}T${10 + Math.floor(rand() * 8)}:00`,
        participants: [mail(), mail()],
        location: one(['Room 3B', '5F', 'Zoom', '三楼会议室']),
      }),
      () => ({
        name: one(RECORD_FIELDS[lang].values),
        email: mail(),
        phone: `+86 13${Math.floor(rand() * 1e9)}`,
        owner: one(people),
        website: `https://www.${one(['acme', 'globex', 'initech'])}.example`,
      }),
      () => ({
        invoice: `INV-${1000 + Math.floor(rand() * 9000)}`,
        amount: Math.floor(rand() * 90000) / 100,
        currency: one(['EUR', 'USD', 'CNY']),
        iban: one(['DE89370400440532013000', 'GB29NWBK60161331926819', 'FR1420041010050500013M02606']),
        due: '2026-04-30',
        status: one(['paid', 'open', 'overdue']),
      }),
      () => ({
        ticket: 100 + Math.floor(rand() * 9000),
        reporter: mail(),
        subject: one(DOC_SENTENCES[lang]),
        status: one(['open', 'closed', 'pending']),
        link: `https://helpdesk.example/t/${Math.floor(rand() * 9999)}`,
      }),
      () => ({
        file: `${one(['q3-report', 'budget', 'minutes', 'roadmap'])}.${one(['pdf', 'xlsx', 'docx'])}`,
        shared_with: [mail(), mail()],
        url: `https://drive.example/f/${Math.floor(rand() * 1e6)}`,
        modified: '2026-03-01',
      }),
    ];
    const rec = one(kinds)();
    const text =
      rand() < 0.3 ? JSON.stringify({ status: 'ok', data: [rec, one(kinds)()] }) : JSON.stringify(rec);
    add({
      text,
      label: 'benign',
      lang,
      channel: 'tool_output',
      kind: 'record@json',
      template: `record:${lang}`,
    });
  }
  // benign documents that quote user-style requests (a forwarded request is not an attack on us)
  for (let i = 0; i < 500; i++) {
    const docKind = one(['email', 'ticket', 'chat', 'json'] as const);
    const text = documentOf(docKind, lang, officeRequest(lang).query, rand());
    add({
      text,
      label: 'benign',
      lang,
      channel: 'tool_output',
      kind: `request@${docKind}`,
      template: `docreq:${lang}:${docKind}`,
    });
  }
}

// ---------- real text written elsewhere (tool_output) ----------
// Documentation of the installed packages (English; the lock file pins it, so the sample is
// reproducible) and the project's source documents (Chinese long-form articles): prose nobody
// here wrote, full of imperatives addressed to people ("run", "you should", "请"). Half of the
// chunks carry an injected instruction at a sentence boundary, so the scorer must find the
// instruction rather than tell our own phrasing from anyone else's.
function markdownFiles(dir: string, out: string[] = [], depth = 0): string[] {
  if (depth > 6) return out;
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) markdownFiles(path, out, depth + 1);
    else if (/\.(md|markdown)$/i.test(e.name) && !/changelog|license|history/i.test(e.name)) out.push(path);
  }
  return out;
}
function chunksOf(text: string, lang: Lang, n: number): string[] {
  const clean = text.replace(/\r/g, '').replace(/\n{3,}/g, '\n\n');
  const out: string[] = [];
  for (let k = 0; k < n && clean.length > 200; k++) {
    const len = 150 + Math.floor(rand() * (lang === 'zh' ? 700 : 1400));
    const at = Math.floor(rand() * Math.max(1, clean.length - len));
    out.push(clean.slice(at, at + len));
  }
  return out;
}
function insertAtBoundary(chunk: string, attack: string, lang: Lang): string {
  const breaks = [...chunk.matchAll(lang === 'zh' ? /[。！？\n]/g : /[.!?]\s|\n/g)].map(
    (m) => m.index! + m[0].length,
  );
  const at = breaks.length ? one(breaks) : chunk.length;
  return `${chunk.slice(0, at)}${lang === 'zh' ? '' : ' '}${attack}${lang === 'zh' ? '' : ' '}${chunk.slice(at)}`;
}
// Only the packages package.json names (each pinned to one version), never whatever else the
// install pulled in: the corpus is then a function of the repository, and regenerating it gives
// the same bytes (test/gates/generated-files.test.ts).
const REPO = resolve(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(resolve(REPO, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const realEn = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })
  .sort()
  .flatMap((name) => markdownFiles(resolve(REPO, 'node_modules', name)))
  .map((f) => readFileSync(f, 'utf8'))
  .filter((t) => t.length > 800);
const SEEDS_DIR = [resolve(REPO, '../shared/seeds'), resolve(REPO, '../../shared/seeds')].find((d) =>
  existsSync(d),
);
if (!SEEDS_DIR) {
  // without them the corpus would silently lose its Chinese long-form documents
  process.stderr.write('generate-injection-data: ../shared/seeds not found beside the checkout\n');
  process.exit(2);
}
const realZh = readdirSync(SEEDS_DIR)
  .filter((f) => f.endsWith('.txt'))
  .sort()
  .map((f) => readFileSync(`${SEEDS_DIR}/${f}`, 'utf8'));
for (const [lang, texts, per] of [
  ['en', realEn, 32],
  ['zh', realZh, 500],
] as const) {
  for (const t of texts) {
    for (const chunk of chunksOf(t, lang, per)) {
      const docKind = one(['web', 'email', 'markdown', 'json', 'html', 'pdf'] as const);
      const wrap = (body: string) =>
        docKind === 'json'
          ? JSON.stringify({ [one(RECORD_FIELDS[lang].keys)]: body })
          : docKind === 'html'
            ? `<html><body><p>${body}</p></body></html>`
            : docKind === 'email'
              ? `${lang === 'en' ? 'Subject' : '主题'}: ${one(RECORD_FIELDS[lang].values)}\n\n${body}`
              : body;
      if (rand() < 0.5) {
        add({
          text: wrap(chunk),
          label: 'benign',
          lang,
          channel: 'tool_output',
          kind: `real@${docKind}`,
          template: `real:${lang}:${docKind}`,
        });
      } else {
        const hijack = rand() < 0.3;
        const [technique, templates] = hijack
          ? (['hijack', HIJACK[lang].templates] as const)
          : one(Object.entries(INDIRECT[lang]));
        const ti = Math.floor(rand() * templates.length);
        const attack = tidy(fill(templates[ti]!, hijack ? HIJACK[lang].slots : SLOTS[lang]), lang);
        add({
          text: wrap(insertAtBoundary(chunk, attack, lang)),
          label: 'injection',
          lang,
          channel: 'tool_output',
          kind: `${technique}@real-${docKind}`,
          template: `indirect:${lang}:${technique}:${ti}`,
        });
      }
    }
  }
}

mkdirSync(dirname(OUT), { recursive: true });
const header = {
  _generated: 'by scripts/generate-injection-data.ts — do not edit; regenerate instead',
  seed: SEED,
  rows: rows.length,
};
writeFileSync(OUT, `${[header, ...rows].map((r) => JSON.stringify(r)).join('\n')}\n`);
const count = (f: (r: CorpusRow) => boolean) => rows.filter(f).length;
process.stdout.write(
  `${JSON.stringify({
    out: OUT,
    rows: rows.length,
    user_input: {
      injection: count((r) => r.channel === 'user_input' && r.label === 'injection'),
      benign: count((r) => r.channel === 'user_input' && r.label === 'benign'),
    },
    tool_output: {
      injection: count((r) => r.channel === 'tool_output' && r.label === 'injection'),
      benign: count((r) => r.channel === 'tool_output' && r.label === 'benign'),
    },
  })}\n`,
);

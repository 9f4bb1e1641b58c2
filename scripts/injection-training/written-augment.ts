/**
 * Augments the hand-written injection set (data/written/) into documents: every written attack
 * — a note addressed to the model, or a user's override — is set into a few of the written
 * benign documents at a line or sentence boundary (an injected tool output), and every written
 * benign note or hard benign request is set into others (still benign). The same document thus
 * appears clean, with a note to a person, and with a note to the model, so the scorer must read
 * the note and whom it addresses, not the document's shape (docs/gates.md "Learned scorer").
 *
 * Written user requests are also joined in pairs (a request, then an attack or another
 * request), the shape of an attack buried after a normal request.
 *
 * Only rows outside the calibration split are used, so nothing the operating point is placed on
 * leaks into fitting; each augmented row names its parents, so cross-validation can drop the
 * rows built from a held-out fold.
 */
import { seededRandom } from '../../src/router/index.js';
import { pick } from '../injection-corpus/augment.js';
import { isCalibration } from './data.js';
import type { LabelledText } from './vectorize.js';

/** Places `note` at one of `host`'s line or sentence boundaries (or at its end). */
function insertNote(host: string, note: string, rand: () => number): string {
  const breaks = [...host.matchAll(/\n+|(?<=[.!?。！？])\s*/g)]
    .map((m) => m.index! + m[0].length)
    .filter((i) => i > 0 && i < host.length);
  breaks.push(host.length);
  const at = breaks[Math.floor(rand() * breaks.length)]!;
  const sep = rand() < 0.6 ? '\n\n' : /[\u3400-\u9fff]/.test(note) ? '' : ' ';
  return `${host.slice(0, at).trimEnd()}${sep}${note}${sep === '' ? '' : sep === ' ' ? ' ' : '\n\n'}${host.slice(at).trimStart()}`.trim();
}

/** How many hosts each written note or request is set into. */
const PER_NOTE = 3;

export function augmentWritten(written: readonly LabelledText[], seed = 21): LabelledText[] {
  const rand = seededRandom(seed);
  const usable = written.filter((r) => !isCalibration(r));
  const hosts = usable.filter(
    (r) => r.channel === 'tool_output' && r.label === 'benign' && r.kind !== 'note',
  );
  const notes = usable.filter(
    (r) =>
      r.kind === 'note' || r.channel === 'user_input' || (r.label === 'injection' && r.text.length < 160),
  );
  const out: LabelledText[] = [];
  for (const n of notes) {
    // a host in the note's language where there is one, else any
    const same = hosts.filter((h) => h.lang === n.lang);
    const pool = same.length >= PER_NOTE ? same : hosts;
    const picked = new Set<number>();
    while (picked.size < Math.min(PER_NOTE, pool.length)) picked.add(Math.floor(rand() * pool.length));
    for (const i of picked) {
      const h = pool[i]!;
      out.push({
        id: `${h.id}+${n.id}`,
        text: insertNote(h.text, n.text, rand),
        label: n.label,
        lang: n.lang === h.lang ? h.lang : 'mixed',
        channel: 'tool_output',
        source: 'written-augmented',
        kind: `${n.kind ?? 'note'}@${h.kind ?? 'doc'}`,
        parents: [h.id, n.id],
      });
    }
  }
  // buried in a request: a written user request, then a written attack or another request
  const requests = usable.filter((r) => r.channel === 'user_input' && r.label === 'benign');
  for (const n of usable.filter((r) => r.channel === 'user_input')) {
    for (let k = 0; k < 2; k++) {
      const pool = requests.filter((h) => h.id !== n.id && (h.lang === n.lang || rand() < 0.2));
      const h = pool[Math.floor(rand() * pool.length)];
      if (!h) continue;
      const sep = /[\u3400-\u9fff]$/.test(h.text) ? '。' : rand() < 0.5 ? ' ' : '\n';
      out.push({
        id: `${h.id}+${n.id}`,
        text: `${h.text}${/[.!?。！？]$/.test(h.text) ? (sep === '。' ? '' : sep) : sep}${pick(rand, BRIDGES[n.lang === 'zh' ? 'zh' : 'en'])}${n.text}`,
        label: n.label,
        lang: n.lang === h.lang ? h.lang : 'mixed',
        channel: 'user_input',
        source: 'written-augmented',
        kind: `${n.kind ?? 'request'}@request`,
        parents: [h.id, n.id],
      });
    }
  }
  return out;
}

/** How a second request is joined to a first one (the second is an attack as often as not). */
const BRIDGES = {
  en: ['', 'Also, ', 'One more thing: ', 'By the way, ', 'And then ', 'P.S. ', 'After that, '],
  zh: ['', '另外，', '还有，', '对了，', '然后', '顺便说一下，', '再就是，'],
} as const;

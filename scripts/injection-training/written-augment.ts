/**
 * Augments the hand-written injection set (data/written/) into documents: every written attack
 * — a note addressed to the model, or a user's override — is set into a few of the written
 * benign documents at a line or sentence boundary (an injected tool output), and every written
 * benign note or hard benign request is set into others (still benign). The same document thus
 * appears clean, with a note to a person, and with a note to the model, so the scorer must read
 * the note and whom it addresses, not the document's shape (docs/gates.md "Learned scorer").
 *
 * Only rows outside the calibration split are used, so nothing the operating point is placed on
 * leaks into fitting; each augmented row names its parents, so cross-validation can drop the
 * rows built from a held-out fold.
 */
import { isCalibration } from './data.js';
import type { LabelledText } from './vectorize.js';

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
  const rand = mulberry32(seed);
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
  return out;
}

/**
 * Aho-Corasick automaton over UTF-16 code units: one pass over a text reports which of a fixed
 * set of literal strings occur in it. Built once; scanning allocates nothing.
 */
export class KeywordIndex {
  private readonly next: Array<Map<number, number>>;
  private readonly fail: Int32Array;
  /** Keyword ids ending at each state, including those reached through failure links. */
  private readonly out: ReadonlyArray<Int32Array>;
  /** Dense transitions out of the root: most characters of a text start no keyword. */
  private readonly rootNext: Int32Array;
  readonly size: number;

  constructor(keywords: readonly string[]) {
    this.size = keywords.length;
    const next: Array<Map<number, number>> = [new Map()];
    const ends: number[][] = [[]];
    keywords.forEach((kw, id) => {
      if (kw.length === 0) throw new RangeError('KeywordIndex: empty keyword');
      let s = 0;
      for (let i = 0; i < kw.length; i++) {
        const c = kw.charCodeAt(i);
        let t = next[s]!.get(c);
        if (t === undefined) {
          t = next.length;
          next.push(new Map());
          ends.push([]);
          next[s]!.set(c, t);
        }
        s = t;
      }
      ends[s]!.push(id);
    });
    const fail = new Int32Array(next.length);
    const out: Int32Array[] = new Array(next.length);
    out[0] = new Int32Array(0);
    const queue: number[] = [];
    for (const t of next[0]!.values()) {
      fail[t] = 0;
      queue.push(t);
    }
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q]!;
      const f = fail[s]!;
      out[s] = Int32Array.from(new Set([...ends[s]!, ...(out[f] ?? [])]));
      for (const [c, t] of next[s]!) {
        let g = f;
        while (g !== 0 && !next[g]!.has(c)) g = fail[g]!;
        const h = next[g]!.get(c);
        fail[t] = h !== undefined && h !== t ? h : 0;
        queue.push(t);
      }
    }
    this.next = next;
    this.fail = fail;
    this.out = out;
    this.rootNext = new Int32Array(0x10000);
    for (const [c, t] of next[0]!) this.rootNext[c] = t;
  }

  /**
   * Sets `found[id] = 1` for every keyword occurring in `text` (entries are never cleared here:
   * the caller zeroes the array). Returns how many distinct keywords were newly found.
   */
  mark(text: string, found: Uint8Array): number {
    const { next, fail, out, rootNext } = this;
    let s = 0;
    let newly = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (s === 0) {
        s = rootNext[c]!;
        if (s === 0) continue;
      } else {
        let t = next[s]!.get(c);
        while (t === undefined && s !== 0) {
          s = fail[s]!;
          t = s === 0 ? rootNext[c] : next[s]!.get(c);
        }
        s = t ?? 0;
      }
      const o = out[s]!;
      for (let k = 0; k < o.length; k++) {
        const id = o[k]!;
        if (found[id] === 0) {
          found[id] = 1;
          newly++;
        }
      }
    }
    return newly;
  }
}

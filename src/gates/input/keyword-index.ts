/**
 * Aho-Corasick automata over UTF-16 code units: one pass over a text reports which of a fixed
 * set of literal strings occur in it. Built once; scanning allocates nothing.
 *
 * Keywords made only of ASCII go into a dense DFA (a table row per state, columns per ASCII
 * character class): the inner loop is one table read per character, which matters because
 * short English keywords ("to ", "the ") keep that automaton busy on every sentence. The other
 * keywords (Chinese, mixed) use a sparse automaton with failure links; on most text it sits at
 * its root and costs one array read per character.
 */

/** Dense DFA for ASCII-only keywords. */
class AsciiAutomaton {
  private readonly classOf = new Uint8Array(128);
  private readonly width: number;
  private readonly delta: Int32Array;
  private readonly out: ReadonlyArray<Int32Array | undefined>;

  constructor(keywords: ReadonlyArray<readonly [string, number]>) {
    let classes = 1; // class 0: characters that occur in no keyword
    for (const [kw] of keywords) {
      for (let i = 0; i < kw.length; i++) {
        const c = kw.charCodeAt(i);
        if (this.classOf[c] === 0) this.classOf[c] = classes++;
      }
    }
    const width = classes;
    this.width = width;
    // Trie: per state, its edges as alternating (class, target) pairs.
    const edges: number[][] = [[]];
    const ends: number[][] = [[]];
    for (const [kw, id] of keywords) {
      let s = 0;
      for (let i = 0; i < kw.length; i++) {
        const k = this.classOf[kw.charCodeAt(i)]!;
        const e = edges[s]!;
        let t = -1;
        for (let j = 0; j < e.length; j += 2) {
          if (e[j] === k) {
            t = e[j + 1]!;
            break;
          }
        }
        if (t < 0) {
          t = edges.length;
          edges.push([]);
          ends.push([]);
          e.push(k, t);
        }
        s = t;
      }
      ends[s]!.push(id);
    }
    const states = edges.length;
    const delta = new Int32Array(states * width);
    const fail = new Int32Array(states);
    const out: Array<Int32Array | undefined> = new Array(states).fill(undefined);
    const queue: number[] = [];
    const root = edges[0]!;
    for (let j = 0; j < root.length; j += 2) {
      delta[root[j]!] = root[j + 1]!;
      queue.push(root[j + 1]!);
    }
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q]!;
      const f = fail[s]!;
      const merged = [...ends[s]!, ...(out[f] ?? [])];
      if (merged.length > 0) out[s] = Int32Array.from(new Set(merged));
      // Row of s = row of its failure state, overridden by its own edges.
      delta.copyWithin(s * width, f * width, f * width + width);
      const e = edges[s]!;
      for (let j = 0; j < e.length; j += 2) {
        const k = e[j]!;
        const t = e[j + 1]!;
        fail[t] = delta[f * width + k]!;
        delta[s * width + k] = t;
        queue.push(t);
      }
    }
    this.delta = delta;
    this.out = out;
  }

  mark(text: string, found: Uint8Array, hits: Int32Array, count: number): number {
    const { classOf, width, delta, out } = this;
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      s = c < 128 ? delta[s * width + classOf[c]!]! : 0;
      const o = out[s];
      if (o === undefined) continue;
      for (let k = 0; k < o.length; k++) {
        const id = o[k]!;
        if (found[id] === 0) {
          found[id] = 1;
          hits[count++] = id;
        }
      }
    }
    return count;
  }
}

/** Sparse automaton with failure links for keywords containing non-ASCII characters. */
class SparseAutomaton {
  private readonly next: Array<Map<number, number>>;
  private readonly fail: Int32Array;
  private readonly out: ReadonlyArray<Int32Array | undefined>;
  /** Dense transitions out of the root: most characters of a text start no keyword. */
  private readonly rootNext = new Int32Array(0x10000);

  constructor(keywords: ReadonlyArray<readonly [string, number]>) {
    const next: Array<Map<number, number>> = [new Map()];
    const ends: number[][] = [[]];
    for (const [kw, id] of keywords) {
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
    }
    const fail = new Int32Array(next.length);
    const out: Array<Int32Array | undefined> = new Array(next.length).fill(undefined);
    const queue = [...next[0]!.values()];
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q]!;
      const f = fail[s]!;
      const merged = [...ends[s]!, ...(out[f] ?? [])];
      if (merged.length > 0) out[s] = Int32Array.from(new Set(merged));
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
    for (const [c, t] of next[0]!) this.rootNext[c] = t;
  }

  mark(text: string, found: Uint8Array, hits: Int32Array, count: number): number {
    const { next, fail, out, rootNext } = this;
    let s = 0;
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
      const o = out[s];
      if (o === undefined) continue;
      for (let k = 0; k < o.length; k++) {
        const id = o[k]!;
        if (found[id] === 0) {
          found[id] = 1;
          hits[count++] = id;
        }
      }
    }
    return count;
  }
}

export class KeywordIndex {
  private readonly ascii: AsciiAutomaton;
  private readonly sparse: SparseAutomaton;
  readonly size: number;

  constructor(keywords: readonly string[]) {
    this.size = keywords.length;
    const ascii: Array<[string, number]> = [];
    const other: Array<[string, number]> = [];
    keywords.forEach((kw, id) => {
      if (kw.length === 0) throw new RangeError('KeywordIndex: empty keyword');
      (/^[\0-\x7f]*$/.test(kw) ? ascii : other).push([kw, id]);
    });
    this.ascii = new AsciiAutomaton(ascii);
    this.sparse = new SparseAutomaton(other);
  }

  /**
   * Finds the keywords occurring in `text`. For each one not yet marked in `found` (indexed by
   * keyword id, all zero at the start of a scan), sets `found[id] = 1` and appends `id` to `hits`
   * (length ≥ `size`) from position `count`. Returns the new count. Allocates nothing.
   */
  mark(text: string, found: Uint8Array, hits: Int32Array, count = 0): number {
    return this.sparse.mark(text, found, hits, this.ascii.mark(text, found, hits, count));
  }
}

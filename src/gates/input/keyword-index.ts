/**
 * Aho-Corasick automata over UTF-16 code units: one pass over a text reports which of a fixed
 * set of literal strings occur in it. Scanning allocates nothing.
 *
 * Keywords made only of ASCII go into a dense DFA (a table row per state, columns per ASCII
 * character class): the inner loop is one table read per character, which matters because
 * short English keywords ("to ", "the ") keep that automaton busy on every sentence. The other
 * keywords (Chinese, mixed) use a sparse automaton with failure links; on most text it sits at
 * its root and costs one array read per character.
 *
 * Both automata live in flat typed arrays, so an index can be written to bytes at build time and
 * read back without rebuilding (`toBytes`/`fromBytes`): building the injection recognisers' index
 * costs tens of milliseconds in a cold process, which one-shot CLI runs would pay every time.
 */

/** Keywords reported by each state: `ids[offsets[s] .. offsets[s + 1])`. */
interface Outputs {
  readonly offsets: Int32Array;
  readonly ids: Int32Array;
}

/** Flattens per-state keyword lists (sharing arrays is fine: each state's list is copied). */
function flattenOutputs(out: ReadonlyArray<readonly number[] | undefined>): Outputs {
  const offsets = new Int32Array(out.length + 1);
  let total = 0;
  for (let s = 0; s < out.length; s++) {
    offsets[s] = total;
    total += out[s]?.length ?? 0;
  }
  offsets[out.length] = total;
  const ids = new Int32Array(total);
  for (let s = 0; s < out.length; s++) {
    const list = out[s];
    if (list) ids.set(list, offsets[s]!);
  }
  return { offsets, ids };
}

/**
 * The keywords a state reports: its own plus its failure state's. States without keywords of
 * their own share the failure state's list, so most states allocate nothing.
 */
function withOwn(own: readonly number[] | undefined, inherited: readonly number[] | undefined) {
  if (own === undefined || own.length === 0) return inherited;
  if (inherited === undefined) return [...new Set(own)];
  return [...new Set([...own, ...inherited])];
}

/** Appends newly found keyword ids of state `s` to `hits`; returns the new count. */
function report(o: Outputs, s: number, found: Uint8Array, hits: Int32Array, count: number): number {
  const end = o.offsets[s + 1]!;
  for (let k = o.offsets[s]!; k < end; k++) {
    const id = o.ids[k]!;
    if (found[id] === 0) {
      found[id] = 1;
      hits[count++] = id;
    }
  }
  return count;
}

/** The dense DFA's arrays. */
interface AsciiTables {
  readonly classOf: Uint8Array;
  readonly width: number;
  readonly delta: Int32Array;
  readonly out: Outputs;
}

/** Dense DFA for ASCII-only keywords. */
function buildAscii(keywords: ReadonlyArray<readonly [string, number]>): AsciiTables {
  const classOf = new Uint8Array(128);
  let classes = 1; // class 0: characters that occur in no keyword
  let chars = 0;
  for (const [kw] of keywords) {
    chars += kw.length;
    for (let i = 0; i < kw.length; i++) {
      const c = kw.charCodeAt(i);
      if (classOf[c] === 0) classOf[c] = classes++;
    }
  }
  const width = classes;
  // The trie is built straight into the transition table (at most one state per keyword
  // character, plus the root), each state's children also kept as a linked list in flat arrays.
  const capacity = chars + 1;
  let delta = new Int32Array(capacity * width);
  const firstChild = new Int32Array(capacity);
  const nextSibling = new Int32Array(capacity);
  const classOfState = new Int32Array(capacity);
  const ends = new Map<number, number[]>();
  let states = 1;
  for (const [kw, id] of keywords) {
    let s = 0;
    for (let i = 0; i < kw.length; i++) {
      const k = classOf[kw.charCodeAt(i)]!;
      let t = delta[s * width + k]!;
      if (t === 0) {
        t = states++;
        delta[s * width + k] = t;
        classOfState[t] = k;
        nextSibling[t] = firstChild[s]!;
        firstChild[s] = t;
      }
      s = t;
    }
    const list = ends.get(s);
    if (list) list.push(id);
    else ends.set(s, [id]);
  }
  delta = delta.slice(0, states * width);
  // Breadth-first, so a state's failure state has its complete row when the state is reached:
  // the state's row is that row, overridden by the state's own children.
  const fail = new Int32Array(states);
  const out: Array<readonly number[] | undefined> = new Array(states).fill(undefined);
  const queue = new Int32Array(states);
  let tail = 0;
  for (let t = firstChild[0]!; t !== 0; t = nextSibling[t]!) queue[tail++] = t;
  for (let head = 0; head < tail; head++) {
    const s = queue[head]!;
    const f = fail[s]!;
    out[s] = withOwn(ends.get(s), out[f]);
    const failRow = f * width;
    delta.copyWithin(s * width, failRow, failRow + width);
    for (let t = firstChild[s]!; t !== 0; t = nextSibling[t]!) {
      const k = classOfState[t]!;
      fail[t] = delta[failRow + k]!;
      delta[s * width + k] = t;
      queue[tail++] = t;
    }
  }
  return { classOf, width, delta, out: flattenOutputs(out) };
}

function markAscii(a: AsciiTables, text: string, found: Uint8Array, hits: Int32Array, count: number): number {
  const { classOf, width, delta, out } = a;
  const offsets = out.offsets;
  let s = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    s = c < 128 ? delta[s * width + classOf[c]!]! : 0;
    if (offsets[s] !== offsets[s + 1]) count = report(out, s, found, hits, count);
  }
  return count;
}

/** The sparse automaton's arrays: each state's edges sorted by character. */
interface SparseTables {
  readonly edgeStart: Int32Array;
  readonly edgeChar: Uint16Array;
  readonly edgeTarget: Int32Array;
  readonly fail: Int32Array;
  readonly out: Outputs;
}

/** Sparse automaton with failure links for keywords containing non-ASCII characters. */
function buildSparse(keywords: ReadonlyArray<readonly [string, number]>): SparseTables {
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
  const out: Array<readonly number[] | undefined> = new Array(next.length).fill(undefined);
  const queue = [...next[0]!.values()];
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q]!;
    const f = fail[s]!;
    out[s] = withOwn(ends[s], out[f]);
    for (const [c, t] of next[s]!) {
      let g = f;
      while (g !== 0 && !next[g]!.has(c)) g = fail[g]!;
      const h = next[g]!.get(c);
      fail[t] = h !== undefined && h !== t ? h : 0;
      queue.push(t);
    }
  }
  const edgeStart = new Int32Array(next.length + 1);
  let edges = 0;
  for (let s = 0; s < next.length; s++) {
    edgeStart[s] = edges;
    edges += next[s]!.size;
  }
  edgeStart[next.length] = edges;
  const edgeChar = new Uint16Array(edges);
  const edgeTarget = new Int32Array(edges);
  for (let s = 0; s < next.length; s++) {
    let e = edgeStart[s]!;
    for (const [c, t] of [...next[s]!].sort((x, y) => x[0] - y[0])) {
      edgeChar[e] = c;
      edgeTarget[e++] = t;
    }
  }
  return { edgeStart, edgeChar, edgeTarget, fail, out: flattenOutputs(out) };
}

/** The state reached from `s` on character `c` by a trie edge, or -1. */
function edge(t: SparseTables, s: number, c: number): number {
  let lo = t.edgeStart[s]!;
  let hi = t.edgeStart[s + 1]! - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const m = t.edgeChar[mid]!;
    if (m === c) return t.edgeTarget[mid]!;
    if (m < c) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Dense transitions out of the root: most characters of a text start no keyword. */
function rootTransitions(t: SparseTables): Int32Array {
  const root = new Int32Array(0x10000);
  for (let e = t.edgeStart[0]!; e < t.edgeStart[1]!; e++) root[t.edgeChar[e]!] = t.edgeTarget[e]!;
  return root;
}

function markSparse(
  t: SparseTables,
  rootNext: Int32Array,
  text: string,
  found: Uint8Array,
  hits: Int32Array,
  count: number,
): number {
  const { fail, out } = t;
  const offsets = out.offsets;
  let s = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (s === 0) {
      s = rootNext[c]!;
      if (s === 0) continue;
    } else {
      let n = edge(t, s, c);
      while (n < 0 && s !== 0) {
        s = fail[s]!;
        n = s === 0 ? rootNext[c]! : edge(t, s, c);
      }
      s = Math.max(n, 0);
    }
    if (offsets[s] !== offsets[s + 1]) count = report(out, s, found, hits, count);
  }
  return count;
}

const MAGIC = 0x4b_57_54_33; // "TWK3"

/** Section lengths rounded up to whole 4-byte words, so every section starts aligned. */
function padded(length: number): number {
  return (length + 3) & ~3;
}

/** The keyword list as stored in the bytes: what a serialised index must have been built from. */
function keywordsText(keywords: readonly string[]): string {
  return keywords.join('\0');
}

export class KeywordIndex {
  readonly size: number;
  private readonly rootNext: Int32Array;

  private constructor(
    keywords: readonly string[],
    private readonly ascii: AsciiTables,
    private readonly sparse: SparseTables,
  ) {
    this.size = keywords.length;
    this.rootNext = rootTransitions(sparse);
  }

  /** Builds the automata for `keywords` (keyword id = position in the list). */
  static build(keywords: readonly string[]): KeywordIndex {
    const ascii: Array<[string, number]> = [];
    const other: Array<[string, number]> = [];
    keywords.forEach((kw, id) => {
      if (kw.length === 0) throw new RangeError('KeywordIndex: empty keyword');
      (/^[\0-\x7f]*$/.test(kw) ? ascii : other).push([kw, id]);
    });
    return new KeywordIndex(keywords, buildAscii(ascii), buildSparse(other));
  }

  /**
   * Reads an index written by `toBytes`. Returns undefined unless the bytes are a well-formed
   * index built from exactly `keywords` (same strings, same order), so a stale or damaged file
   * only means building afresh.
   */
  static fromBytes(bytes: Uint8Array, keywords: readonly string[]): KeywordIndex | undefined {
    try {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (view.getUint32(0, true) !== MAGIC) return undefined;
      // The keyword list itself, compared exactly (a digest would need node:crypto, which a
      // one-shot scan otherwise never loads).
      const textLength = view.getUint32(4, true);
      if (8 + textLength > bytes.byteLength) return undefined;
      const stored = Buffer.from(bytes.buffer, bytes.byteOffset + 8, textLength).toString('utf8');
      if (stored !== keywordsText(keywords)) return undefined;
      let at = 8 + padded(textLength);
      // Sections start 4-byte aligned within the file, so they are views into it when the buffer
      // is aligned too (a file read on its own is) and copies otherwise.
      const aligned = bytes.byteOffset % 4 === 0;
      const section = <T>(make: (buf: ArrayBuffer, offset: number, bytes: number) => T): T => {
        const length = view.getUint32(at, true);
        const start = at + 4;
        if (start + length > bytes.byteLength) throw new RangeError('truncated');
        at = start + padded(length);
        if (aligned) return make(bytes.buffer as ArrayBuffer, bytes.byteOffset + start, length);
        return make(Uint8Array.prototype.slice.call(bytes, start, start + length).buffer, 0, length);
      };
      const i32 = (buf: ArrayBuffer, offset: number, n: number) => new Int32Array(buf, offset, n / 4);
      const classOf = section((buf, offset, n) => new Uint8Array(buf, offset, n));
      const [width] = section(i32);
      const ascii: AsciiTables = {
        classOf,
        width: width!,
        delta: section(i32),
        out: { offsets: section(i32), ids: section(i32) },
      };
      const sparse: SparseTables = {
        edgeStart: section(i32),
        edgeChar: section((buf, offset, n) => new Uint16Array(buf, offset, n / 2)),
        edgeTarget: section(i32),
        fail: section(i32),
        out: { offsets: section(i32), ids: section(i32) },
      };
      const consistent =
        at === bytes.byteLength &&
        classOf.length === 128 &&
        ascii.delta.length === (ascii.out.offsets.length - 1) * ascii.width &&
        sparse.edgeStart.length === sparse.out.offsets.length &&
        sparse.fail.length === sparse.out.offsets.length - 1 &&
        sparse.edgeChar.length === sparse.edgeTarget.length;
      if (!consistent) return undefined;
      return new KeywordIndex(keywords, ascii, sparse);
    } catch {
      return undefined;
    }
  }

  /** The index as bytes for `fromBytes`, holding `keywords` to be compared on reading. */
  toBytes(keywords: readonly string[]): Uint8Array {
    const { ascii, sparse } = this;
    const parts: Uint8Array[] = [];
    const text = Buffer.from(keywordsText(keywords), 'utf8');
    const header = new Uint8Array(8);
    new DataView(header.buffer).setUint32(0, MAGIC, true);
    new DataView(header.buffer).setUint32(4, text.byteLength, true);
    parts.push(header, text, new Uint8Array(padded(text.byteLength) - text.byteLength));
    const sections: ArrayBufferView[] = [
      ascii.classOf,
      Int32Array.of(ascii.width),
      ascii.delta,
      ascii.out.offsets,
      ascii.out.ids,
      sparse.edgeStart,
      sparse.edgeChar,
      sparse.edgeTarget,
      sparse.fail,
      sparse.out.offsets,
      sparse.out.ids,
    ];
    for (const s of sections) {
      const length = new Uint8Array(4);
      new DataView(length.buffer).setUint32(0, s.byteLength, true);
      parts.push(length, new Uint8Array(s.buffer, s.byteOffset, s.byteLength));
      parts.push(new Uint8Array(padded(s.byteLength) - s.byteLength));
    }
    return Buffer.concat(parts);
  }

  /**
   * Finds the keywords occurring in `text`. For each one not yet marked in `found` (indexed by
   * keyword id, all zero at the start of a scan), sets `found[id] = 1` and appends `id` to `hits`
   * (length ≥ `size`) from position `count`. Returns the new count. Allocates nothing.
   */
  mark(text: string, found: Uint8Array, hits: Int32Array, count = 0): number {
    const n = markAscii(this.ascii, text, found, hits, count);
    return markSparse(this.sparse, this.rootNext, text, found, hits, n);
  }
}

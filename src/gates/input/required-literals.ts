/**
 * Derives, from a regular expression's source, a set of literal strings such that EVERY match of
 * the expression contains at least one of them. The scanner uses the set as a pre-filter: when
 * none of a recogniser's literals occurs in the text, its regex cannot match and is not run, so
 * skipping it never changes a result. The analysis is conservative — any construct it does not
 * understand makes it answer "no usable set" (`undefined`) and the recogniser always runs.
 *
 * It understands the subset our recognisers use: literals, escapes, groups (capturing,
 * non-capturing, lookaround), alternation, quantifiers and character classes.
 */

/** Finite sets larger than this are abandoned (the analysis falls back to coarser facts). */
const MAX_SET = 64;
const MAX_LITERAL = 40;

/**
 * What is known about the strings a sub-expression matches.
 * `exact`: the complete finite set of strings it can match (undefined when unknown/infinite).
 * `reqs`: requirements that ALL hold — each is a set of which every match contains one member.
 */
interface Facts {
  readonly exact?: ReadonlySet<string>;
  readonly reqs: ReadonlyArray<ReadonlySet<string>>;
}

const ANY: Facts = { reqs: [] };
const EMPTY: Facts = { exact: new Set(['']), reqs: [] };

class UnsupportedPattern extends Error {}

function product(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> | undefined {
  if (a.size * b.size > MAX_SET) return undefined;
  const out = new Set<string>();
  for (const x of a) {
    for (const y of b) {
      const s = x + y;
      if (s.length > MAX_LITERAL) return undefined;
      out.add(s);
    }
  }
  return out;
}

/** A set usable as a filter: finite, no empty string. */
function usable(s: ReadonlySet<string> | undefined): ReadonlySet<string> | undefined {
  if (!s || s.size === 0 || s.has('')) return undefined;
  return s;
}

const minLength = (s: ReadonlySet<string>) => Math.min(...[...s].map((x) => x.length));

/** Longer literals filter better; among equals, fewer alternatives. */
function better(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined) {
  if (!a) return b;
  if (!b) return a;
  const minA = minLength(a);
  const minB = minLength(b);
  if (minA !== minB) return minA > minB ? a : b;
  return a.size <= b.size ? a : b;
}

/** The single most selective requirement (used when branches of an alternation are united). */
function bestOf(f: Facts): ReadonlySet<string> | undefined {
  let best = usable(f.exact);
  for (const r of f.reqs) best = better(best, r);
  return best;
}

function withExact(exact: ReadonlySet<string> | undefined, reqs: Array<ReadonlySet<string>>): Facts {
  const u = usable(exact);
  if (u) reqs.push(u);
  return exact ? { exact, reqs } : { reqs };
}

function sequence(items: readonly Facts[]): Facts {
  let exact: Set<string> | undefined = new Set(['']);
  const reqs: Array<ReadonlySet<string>> = [];
  // Products of consecutive exact items: "ignore" + "(?:掉)?" → {"ignore", "ignore掉"}.
  let run: Set<string> | undefined = new Set(['']);
  const endRun = () => {
    const u = usable(run);
    if (u) reqs.push(u);
  };
  for (const item of items) {
    reqs.push(...item.reqs);
    if (item.exact) {
      if (exact) exact = product(exact, item.exact);
      const next: Set<string> | undefined = run ? product(run, item.exact) : undefined;
      if (next) run = next;
      else {
        endRun();
        run = new Set(item.exact);
      }
    } else {
      exact = undefined;
      endRun();
      run = new Set(['']);
    }
  }
  endRun();
  return withExact(exact, reqs);
}

function alternation(branches: readonly Facts[]): Facts {
  let exact: Set<string> | undefined = new Set();
  const union = new Set<string>();
  let unionOk = true;
  for (const b of branches) {
    if (exact && b.exact && exact.size + b.exact.size <= MAX_SET) for (const s of b.exact) exact.add(s);
    else exact = undefined;
    const r = bestOf(b);
    if (r) for (const s of r) union.add(s);
    else unionOk = false;
  }
  return withExact(exact, unionOk ? [union] : []);
}

function repeat(f: Facts, min: number, max: number): Facts {
  if (min === 0 && max === 1) return f.exact ? { exact: new Set([...f.exact, '']), reqs: [] } : ANY;
  if (min === 0) return ANY;
  if (min === max && f.exact) {
    let acc: Set<string> | undefined = new Set(['']);
    for (let i = 0; i < min && acc; i++) acc = product(acc, f.exact);
    if (acc) return withExact(acc, [...f.reqs]);
  }
  return { reqs: [...f.reqs, ...(usable(f.exact) ? [f.exact!] : [])] };
}

class Parser {
  private i = 0;
  constructor(
    private readonly src: string,
    private readonly unicode: boolean,
  ) {}

  parse(): Facts {
    const f = this.alternation();
    if (this.i !== this.src.length) throw new UnsupportedPattern(`unexpected ) at ${this.i}`);
    return f;
  }

  private alternation(): Facts {
    const branches = [this.sequence()];
    while (this.src[this.i] === '|') {
      this.i++;
      branches.push(this.sequence());
    }
    return branches.length === 1 ? branches[0]! : alternation(branches);
  }

  private sequence(): Facts {
    const items: Facts[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      items.push(this.quantified(this.atom()));
    }
    return sequence(items);
  }

  private quantified(f: Facts): Facts {
    const c = this.src[this.i];
    let min: number;
    let max: number;
    if (c === '?' || c === '*' || c === '+') {
      this.i++;
      [min, max] = c === '?' ? [0, 1] : c === '*' ? [0, Infinity] : [1, Infinity];
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) {
        if (this.unicode) throw new UnsupportedPattern('lone {');
        return f;
      }
      this.i += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    } else return f;
    if (this.src[this.i] === '?') this.i++; // lazy: same set of possible matches
    return this.quantified(repeat(f, min, max));
  }

  private atom(): Facts {
    const c = this.src[this.i]!;
    if (c === '(') return this.group();
    if (c === '[') return this.charClass();
    if (c === '\\') return this.escape();
    this.i++;
    if (c === '.') return ANY;
    if (c === '^' || c === '$') return EMPTY;
    if (c === '*' || c === '+' || c === '?') throw new UnsupportedPattern(`nothing to repeat at ${this.i}`);
    if (this.unicode) {
      const cp = this.src.codePointAt(this.i - 1)!;
      if (cp > 0xffff) this.i++;
      return { exact: new Set([String.fromCodePoint(cp)]), reqs: [] };
    }
    return { exact: new Set([c]), reqs: [] };
  }

  private group(): Facts {
    const rest = this.src.slice(this.i, this.i + 4);
    let lookaround = false;
    if (rest.startsWith('(?:')) this.i += 3;
    else if (rest.startsWith('(?=') || rest.startsWith('(?!')) {
      this.i += 3;
      lookaround = true;
    } else if (rest.startsWith('(?<=') || rest.startsWith('(?<!')) {
      this.i += 4;
      lookaround = true;
    } else if (rest.startsWith('(?<')) {
      const close = this.src.indexOf('>', this.i);
      if (close < 0) throw new UnsupportedPattern('unterminated group name');
      this.i = close + 1;
    } else if (rest.startsWith('(?')) throw new UnsupportedPattern(`group kind at ${this.i}`);
    else this.i++;
    const inner = this.alternation();
    if (this.src[this.i] !== ')') throw new UnsupportedPattern('unterminated group');
    this.i++;
    // A lookaround consumes nothing: it narrows matches but adds no characters to them.
    return lookaround ? EMPTY : inner;
  }

  /** Escapes standing for one literal character, or undefined for classes/assertions. */
  private escapedChar(inClass: boolean): string | undefined | 'assertion' {
    const e = this.src[this.i + 1];
    if (e === undefined) throw new UnsupportedPattern('trailing backslash');
    this.i += 2;
    if (e === 'b' || e === 'B') {
      if (inClass) return '\b';
      return 'assertion';
    }
    if ('dDwWsS'.includes(e)) return undefined;
    if (e === 'p' || e === 'P') {
      if (!this.unicode) return 'p';
      const close = this.src.indexOf('}', this.i);
      if (close < 0) throw new UnsupportedPattern('unterminated \\p');
      this.i = close + 1;
      return undefined;
    }
    const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v', '0': '\0' };
    if (simple[e] !== undefined && !(e === '0' && /\d/.test(this.src[this.i] ?? ''))) return simple[e];
    if (e === 'u') {
      const m = /^[0-9a-fA-F]{4}/.exec(this.src.slice(this.i));
      if (!m) throw new UnsupportedPattern('\\u form');
      this.i += 4;
      return String.fromCharCode(Number.parseInt(m[0], 16));
    }
    if (e === 'x') {
      const m = /^[0-9a-fA-F]{2}/.exec(this.src.slice(this.i));
      if (!m) throw new UnsupportedPattern('\\x form');
      this.i += 2;
      return String.fromCharCode(Number.parseInt(m[0], 16));
    }
    if (/[0-9kcq]/.test(e)) throw new UnsupportedPattern(`escape \\${e}`);
    if (/[a-zA-Z]/.test(e) && this.unicode) throw new UnsupportedPattern(`escape \\${e}`);
    return e;
  }

  private escape(): Facts {
    const ch = this.escapedChar(false);
    if (ch === 'assertion') return EMPTY;
    return ch === undefined ? ANY : { exact: new Set([ch]), reqs: [] };
  }

  private charClass(): Facts {
    this.i++;
    let negated = false;
    if (this.src[this.i] === '^') {
      negated = true;
      this.i++;
    }
    const chars = new Set<string>();
    let open = false; // a range or shorthand class: too many characters to enumerate
    let prev: string | undefined;
    while (this.i < this.src.length && this.src[this.i] !== ']') {
      let ch: string | undefined;
      if (this.src[this.i] === '\\') {
        const e = this.escapedChar(true);
        ch = e === 'assertion' ? undefined : e;
        if (ch === undefined) open = true;
      } else {
        ch = this.src[this.i]!;
        this.i++;
        if (ch === '-' && prev !== undefined && this.src[this.i] !== ']') {
          open = true; // a range
          if (this.src[this.i] === '\\') this.escapedChar(true);
          else this.i++;
          prev = undefined;
          continue;
        }
      }
      if (ch !== undefined) chars.add(ch);
      prev = ch;
    }
    if (this.src[this.i] !== ']') throw new UnsupportedPattern('unterminated class');
    this.i++;
    if (negated || open || chars.size === 0 || chars.size > 12) return ANY;
    if (this.unicode && [...chars].some((c) => c.charCodeAt(0) >= 0xd800 && c.charCodeAt(0) <= 0xdfff))
      return ANY;
    return { exact: chars, reqs: [] };
  }
}

/** Drops literals that contain another literal of the set: the shorter one already implies them. */
function minimal(set: ReadonlySet<string>): string[] {
  const all = [...set].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  const out: string[] = [];
  for (const s of all) if (!out.some((t) => s.includes(t))) out.push(s);
  return out;
}

/** Whether requirement `a` implies `b`: every literal of `a` contains some literal of `b`. */
const implies = (a: readonly string[], b: readonly string[]) => a.every((s) => b.some((t) => s.includes(t)));

/**
 * Requirements that every match of `pattern` meets: a list of literal groups, and each match
 * contains at least one literal of EVERY group. `undefined` when nothing could be derived (then
 * the pattern must always run). Case-insensitive patterns are never filtered (our recognisers
 * run on lower-cased text and use no `i` flag).
 */
export function requiredLiterals(pattern: RegExp): ReadonlyArray<readonly string[]> | undefined {
  if (pattern.flags.includes('i') || pattern.flags.includes('v')) return undefined;
  let facts: Facts;
  try {
    facts = new Parser(pattern.source, pattern.flags.includes('u')).parse();
  } catch (e) {
    if (e instanceof UnsupportedPattern) return undefined;
    throw e;
  }
  const groups = facts.reqs.map(minimal);
  const u = usable(facts.exact);
  if (u) groups.push(minimal(u));
  // Keep the strongest requirements only: a group implied by another adds no filtering.
  const kept: string[][] = [];
  groups.forEach((g, i) => {
    const redundant = groups.some((h, j) => j !== i && implies(h, g) && (!implies(g, h) || j < i));
    if (!redundant) kept.push(g);
  });
  return kept.length > 0 ? kept : undefined;
}

/** Identifies a pattern for precomputed requirements: its flags and its source. */
export function patternKey(pattern: RegExp): string {
  return `${pattern.flags}/${pattern.source}`;
}

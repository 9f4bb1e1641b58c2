import { executableVariants } from './shell-hazards.js';
import type { ShellSegment } from './shell-segment.js';

export type { ShellSegment } from './shell-segment.js';

/**
 * Splits a shell command line into the simple commands it runs, so permission rules can be
 * checked against each one. Deliberately conservative: anything it cannot read with confidence
 * (unbalanced quotes, here-documents) makes the whole line `opaque`, and no allow rule with a
 * specifier may then approve it.
 */

/** Variables whose value a program may load or execute. */
const RISKY_ENV =
  /^(LD_\w*|DYLD_\w*|GIT_\w*|BASH_ENV|ENV|PATH|PAGER|\w*_PAGER|EDITOR|VISUAL|NODE_OPTIONS|PYTHON\w*|PERL5\w*|RUBY\w*|IFS|PS4|PROMPT_COMMAND|\w*_COMMAND|SHELLOPTS|BASHOPTS)=/;

export interface SplitShellCommand {
  readonly segments: readonly ShellSegment[];
  /** Command or process substitution, or an interpreter `-c` string, was present. */
  readonly hasSubstitution: boolean;
  /** The line could not be read with confidence; treat as unmatchable by allow rules. */
  readonly opaque: boolean;
}

const BENIGN_WRAPPERS = new Set(['nohup', 'time', 'nice', 'timeout', 'stdbuf', 'ionice']);
const FORWARDING_WRAPPERS = new Set([
  'sudo',
  'doas',
  'xargs',
  'exec',
  'command',
  'builtin',
  'env',
  'busybox',
]);
const LEADING_KEYWORDS = new Set(['then', 'do', 'else', 'elif', 'if', 'while', 'until', '!', '{']);
const DROPPED_WORDS = new Set(['fi', 'done', 'esac', '}', '{']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);
const ALL_WRAPPERS = new Set([...BENIGN_WRAPPERS, ...FORWARDING_WRAPPERS]);

interface RawPiece {
  words: string[];
  redirects: { op: string; target: string }[];
}

/** Splits `line` on `&&`, `||`, `|`, `|&`, `;`, `&`, newlines, and opens substitutions. */
export function splitShellCommand(line: string): SplitShellCommand {
  const state = { opaque: false, substitution: false };
  const segments: ShellSegment[] = [];
  collect(line, false, segments, state, 0);
  if (state.opaque) {
    // What we could not read may still run. For deny and ask rules, also read the line naively —
    // quotes ignored, every operator a separator — so a here-doc cannot hide `; rm -rf ~`.
    for (const part of line.split(/[;&|\n()`<>]+|\$\(/)) {
      const words = part
        .replace(/['"\\]/g, ' ')
        .trim()
        .split(/\s+/)
        .filter((w) => w !== '');
      const seg = toSegment({ words, redirects: [] }, true);
      if (seg) segments.push(seg);
    }
  }
  // What each command may really run (`/bin/rm`, `busybox rm`, `rm${IFS}-rf`, `find -delete`):
  // judged by deny and ask rules too, never read-only (see shell-hazards.ts).
  for (let i = 0, n = segments.length; i < n; i++) {
    const variants = executableVariants(segments[i]!);
    if (variants.length > 0) segments.push(...variants);
  }
  return { segments, hasSubstitution: state.substitution, opaque: state.opaque };
}

function collect(
  line: string,
  nested: boolean,
  out: ShellSegment[],
  state: { opaque: boolean; substitution: boolean },
  level: number,
): void {
  if (level > 8) {
    state.opaque = true;
    return;
  }
  const inner: string[] = [];
  const pieces = tokenize(line, inner, state);
  for (const sub of inner) {
    state.substitution = true;
    collect(sub, true, out, state, level + 1);
  }
  for (const piece of pieces) {
    const seg = toSegment(piece, nested);
    if (!seg) continue;
    out.push(seg);
    // `sh -c "…"` and `eval …` run a second command line (also behind `env`, `sudo`, `busybox`, …):
    // read it too.
    const runs = stripWrappers([...seg.words], ALL_WRAPPERS);
    const first = runs[0] === undefined ? undefined : runs[0].slice(runs[0].lastIndexOf('/') + 1);
    if (first !== undefined && SHELLS.has(first)) {
      const c = runs.indexOf('-c');
      const script = c >= 0 ? runs[c + 1] : undefined;
      if (script !== undefined) {
        state.substitution = true;
        collect(script, true, out, state, level + 1);
      }
    } else if (first === 'eval' && runs.length > 1) {
      state.substitution = true;
      collect(runs.slice(1).join(' '), true, out, state, level + 1);
    }
  }
}

interface TokenizerState {
  pieces: RawPiece[];
  piece: RawPiece;
  word: string;
  inWord: boolean;
  pendingRedirect: string | undefined;
  flags: { opaque: boolean };
}

function endWord(st: TokenizerState): void {
  if (!st.inWord) return;
  if (st.pendingRedirect !== undefined) {
    st.piece.redirects.push({ op: st.pendingRedirect, target: st.word });
    st.pendingRedirect = undefined;
  } else st.piece.words.push(st.word);
  st.word = '';
  st.inWord = false;
}

function endPiece(st: TokenizerState): void {
  endWord(st);
  if (st.pendingRedirect !== undefined) {
    st.flags.opaque = true;
    st.pendingRedirect = undefined;
  }
  // An empty piece (`a ;; b`, a trailing `;`) is reused rather than replaced.
  if (st.piece.words.length > 0 || st.piece.redirects.length > 0) {
    st.pieces.push(st.piece);
    st.piece = { words: [], redirects: [] };
  }
}

/** Characters that make a line more than whitespace-separated words. */
const SPECIAL: boolean[] = (() => {
  const t = new Array<boolean>(128).fill(false);
  for (const c of '\'"\\$`<>()&|;#\n{}') t[c.charCodeAt(0)] = true;
  return t;
})();

/**
 * The words of a line with no special character, split on spaces and tabs in one pass; null
 * when the line needs the full tokenizer.
 */
function plainWords(line: string): string[] | null {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32 || c === 9) {
      if (start >= 0) {
        words.push(line.slice(start, i));
        start = -1;
      }
    } else if (c < 128 && SPECIAL[c]) return null;
    else if (start < 0) start = i;
  }
  if (start >= 0) words.push(line.slice(start));
  return words;
}

/**
 * Characters that end an ordinary run inside a word (`$` only before `(`, checked apart; `#`
 * only starts a comment at a word start, so it is ordinary mid-word).
 */
const ends: boolean[] = (() => {
  const t = new Array<boolean>(128).fill(false);
  for (const c of '\\\'"`<>()&|; \t\n') t[c.charCodeAt(0)] = true;
  return t;
})();

function tokenize(line: string, inner: string[], state: { opaque: boolean }): RawPiece[] {
  // Fast path: a plain command is just its words.
  const plain = plainWords(line);
  if (plain) return plain.length > 0 ? [{ words: plain, redirects: [] }] : [];
  const st: TokenizerState = {
    pieces: [],
    piece: { words: [], redirects: [] },
    word: '',
    inWord: false,
    pendingRedirect: undefined,
    flags: state,
  };
  let i = 0;
  const n = line.length;
  while (i < n) {
    const ch = line[i]!;
    const next = line[i + 1];
    if (ch === '\\') {
      if (next === '\n') {
        i += 2;
        continue;
      }
      if (next !== undefined) st.word += next;
      st.inWord = true;
      i += 2;
      continue;
    }
    if (ch === "'") {
      const close = line.indexOf("'", i + 1);
      if (close < 0) {
        state.opaque = true;
        st.word += line.slice(i + 1);
        st.inWord = true;
        break;
      }
      st.word += line.slice(i + 1, close);
      st.inWord = true;
      i = close + 1;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      let closed = false;
      while (j < n) {
        const c = line[j]!;
        if (c === '\\' && j + 1 < n) {
          st.word += line[j + 1];
          j += 2;
          continue;
        }
        if (c === '"') {
          closed = true;
          break;
        }
        if (c === '`' || (c === '$' && line[j + 1] === '(')) {
          const sub = readSubstitution(line, c === '`' ? j : j + 1, c === '`');
          if (!sub) {
            state.opaque = true;
            j = n;
            break;
          }
          inner.push(sub.body);
          st.word += line.slice(j, sub.end);
          j = sub.end;
          continue;
        }
        st.word += c;
        j++;
      }
      if (!closed) state.opaque = true;
      st.inWord = true;
      i = j + 1;
      continue;
    }
    if (ch === '`' || ((ch === '$' || ch === '<' || ch === '>') && next === '(')) {
      const sub = readSubstitution(line, ch === '`' ? i : i + 1, ch === '`');
      if (!sub) {
        state.opaque = true;
        break;
      }
      inner.push(sub.body);
      st.word += line.slice(i, sub.end);
      st.inWord = true;
      i = sub.end;
      continue;
    }
    if (ch === '#' && !st.inWord) {
      const nl = line.indexOf('\n', i);
      i = nl < 0 ? n : nl;
      continue;
    }
    if (ch === ' ' || ch === '\t') {
      endWord(st);
      i++;
      continue;
    }
    if (ch === '\n' || ch === ';' || ch === '(' || ch === ')') {
      endPiece(st);
      i += ch === ';' && next === ';' ? 2 : 1;
      continue;
    }
    if (ch === '&' && next === '&') {
      endPiece(st);
      i += 2;
      continue;
    }
    if (ch === '|') {
      endPiece(st);
      i += next === '|' || next === '&' ? 2 : 1;
      continue;
    }
    if (ch === '<' && next === '<') {
      // Here-documents and here-strings carry text we do not parse.
      state.opaque = true;
      endPiece(st);
      break;
    }
    if (ch === '>' || ch === '<' || (ch === '&' && next === '>')) {
      // A redirection; a leading fd number belongs to it, not to the command.
      if (st.inWord && /^\d+$/.test(st.word)) {
        st.word = '';
        st.inWord = false;
      } else endWord(st);
      let op = ch;
      let j = i + 1;
      if (ch === '&') {
        op = '&>';
        j = i + 2;
      }
      if (line[j] === '>' || line[j] === '|') {
        op += line[j];
        j++;
      }
      if (line[j] === '&') {
        // `>&2`, `2>&1`: duplicating a descriptor writes nowhere new.
        j++;
        while (j < n && /[0-9-]/.test(line[j]!)) j++;
        i = j;
        continue;
      }
      st.pendingRedirect = op;
      i = j;
      continue;
    }
    if (ch === '&') {
      endPiece(st);
      i++;
      continue;
    }
    // An ordinary run: take it in one slice rather than a character at a time.
    let j = i + 1;
    while (j < n && !ends[line.charCodeAt(j)]!) {
      if (line.charCodeAt(j) === 36 /* $ */ && line[j + 1] === '(') break;
      j++;
    }
    st.word += j === i + 1 ? ch : line.slice(i, j);
    st.inWord = true;
    i = j;
  }
  endPiece(st);
  return st.pieces;
}

/** Reads `(…)` starting at `open` (or a backtick run), honouring nesting and quotes. */
function readSubstitution(
  line: string,
  open: number,
  backtick: boolean,
): { body: string; end: number } | null {
  if (backtick) {
    let j = open + 1;
    while (j < line.length) {
      if (line[j] === '\\') j += 2;
      else if (line[j] === '`') return { body: line.slice(open + 1, j), end: j + 1 };
      else j++;
    }
    return null;
  }
  let depth = 0;
  let quote: string | undefined;
  for (let j = open; j < line.length; j++) {
    const c = line[j]!;
    if (quote) {
      if (c === '\\' && quote === '"') j++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '\\') {
      j++;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return { body: line.slice(open + 1, j), end: j + 1 };
    }
  }
  return null;
}

const NONE: readonly string[] = Object.freeze([]);

function toSegment(piece: RawPiece, nested: boolean): ShellSegment | null {
  let words = piece.words;
  let k = 0;
  let riskyEnv = false;
  while (k < words.length && (LEADING_KEYWORDS.has(words[k]!) || isAssignment(words[k]!))) {
    if (isAssignment(words[k]!)) riskyEnv = true;
    k++;
  }
  if (k > 0) words = words.slice(k);
  if (words[0] === 'env' && words.slice(1).some((w) => RISKY_ENV.test(w) || isAssignment(w))) riskyEnv = true;
  words = stripWrappers(words, BENIGN_WRAPPERS);
  if (words.length === 1 && DROPPED_WORDS.has(words[0]!)) words = [];
  let writes = NONE;
  let reads = NONE;
  if (piece.redirects.length > 0) {
    writes = piece.redirects
      .filter((r) => r.op.includes('>') && r.target !== '/dev/null')
      .map((r) => r.target);
    reads = piece.redirects.filter((r) => r.op === '<').map((r) => r.target);
  }
  if (words.length === 0 && writes.length === 0 && reads.length === 0) return null;
  const core = stripWrappers(words, ALL_WRAPPERS);
  const text = words.length === 1 ? words[0]! : words.join(' ');
  return { words, text, core: core === words ? text : core.join(' '), writes, reads, nested, riskyEnv };
}

function isAssignment(word: string): boolean {
  // Cheap pre-check: an assignment has `=` somewhere.
  return word.includes('=') && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);
}

/** Drops leading wrapper commands and their options (`timeout -s 9 10 cmd` → `cmd`). */
function stripWrappers(words: string[], wrappers: ReadonlySet<string>): string[] {
  // Most commands have no wrapper: hand back the same array, no copy.
  if (words.length === 0 || !wrappers.has(words[0]!)) return words;
  let i = 0;
  for (;;) {
    const w = words[i];
    if (w === undefined || !wrappers.has(w)) break;
    i++;
    // options and their values, assignments (env), and a timeout's duration
    while (i < words.length) {
      const x = words[i]!;
      if (x.startsWith('-') || isAssignment(x)) {
        i++;
        if (
          (x === '-n' || x === '-s' || x === '-k' || x === '-u' || x === '-I' || x === '-c') &&
          i < words.length
        )
          i++;
        continue;
      }
      if (w === 'timeout' && /^\d+(\.\d+)?[smhd]?$/.test(x)) {
        i++;
        continue;
      }
      break;
    }
  }
  return words.slice(i);
}

import { type PathRoots, resolvePath } from './path-pattern.js';
import type { ShellSegment } from './shell-segment.js';

/**
 * What the usual read tools can do besides reading, from their arguments alone (pure). The shell
 * classifier calls a command read-only only when this finds nothing; the sandbox bounds whatever
 * it misses (docs/sandbox.md). Each check returns the reason, so tests and `check` can say why.
 */
export function readToolHazard(words: readonly string[]): string | undefined {
  const [cmd, ...args] = words;
  if (cmd === undefined) return undefined;
  // Own keys only: a command named `valueOf` or `__proto__` is just an unknown command.
  const check = Object.hasOwn(HAZARDS, cmd) ? HAZARDS[cmd] : undefined;
  return check ? check(args) : undefined;
}

type HazardCheck = (args: readonly string[]) => string | undefined;

const some = (args: readonly string[], re: RegExp, why: string) =>
  args.some((a) => re.test(a)) ? why : undefined;
const operands = (args: readonly string[]) => args.filter((a) => !a.startsWith('-') || a === '-');

const HAZARDS: Readonly<Record<string, HazardCheck>> = {
  sed: sedHazard,
  sort: (args) =>
    some(
      args,
      /^(-[a-zA-Z]*o|--output|--compress-program)/,
      'sort -o/--output writes a file; --compress-program runs one',
    ),
  git: gitHazard,
  find: (args) =>
    some(
      args,
      /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/,
      'find -exec/-delete/-fprint runs commands or writes',
    ),
  less: (args) =>
    some(args, /^(-[a-zA-Z]*[oO]|--log-file|--LOG-FILE|\+)/, 'less -o/--log-file writes; +cmd runs commands'),
  more: (args) => some(args, /^\+/, 'more +cmd runs commands'),
  rg: (args) => some(args, /^--pre(=|$)/, 'rg --pre runs a program on every file'),
  tree: (args) => some(args, /^(-o|--output)/, 'tree -o writes a file'),
  uniq: (args) => (operands(args).length > 1 ? 'uniq with two operands writes the second' : undefined),
  xxd: (args) => (operands(args).length > 1 ? 'xxd with two operands writes the second' : undefined),
  date: (args) => some(args, /^(-s|--set)/, 'date -s sets the clock'),
  hostname: (args) =>
    operands(args).length > 0 || args.some((a) => /^-[a-zA-Z]*[bF]/.test(a))
      ? 'hostname NAME sets the host name'
      : undefined,
  file: (args) => some(args, /^(-[a-zA-Z]*C|--compile)/, 'file -C writes a compiled magic file'),
};

/** Global options git may take before its sub-command without running or redirecting anything. */
const SAFE_GIT_GLOBALS = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--no-replace-objects',
]);

function gitHazard(args: readonly string[]): string | undefined {
  let i = 0;
  for (; i < args.length && args[i]!.startsWith('-'); i++) {
    if (!SAFE_GIT_GLOBALS.has(args[i]!)) {
      return `git ${args[i]} before the sub-command can change config, directory or program (-c, -C, --git-dir, --exec-path, …)`;
    }
  }
  const rest = args.slice(i + 1);
  return some(
    rest,
    /^(--output|-O|--open-files-in-pager|--ext-diff|--exec|--upload-pack|--receive-pack|--contents|--config-env)/,
    'git --output/-O/--ext-diff/--exec writes a file or runs a program',
  );
}

/**
 * sed: in-place editing, script files, and the commands that write (`w`, `W`, `s///w`), execute
 * (`e`, `s///e`) or read other files (`r`, `R`). Scripts are scanned, not guessed: a script the
 * scanner cannot read is a hazard.
 */
function sedHazard(args: readonly string[]): string | undefined {
  const scripts: string[] = [];
  let explicit = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (/^(-i|--in-place)/.test(a) || /^-[a-zA-Z]*i/.test(a)) return 'sed -i edits files in place';
    if (a === '-f' || a.startsWith('--file') || /^-[a-zA-Z]*f/.test(a))
      return 'sed -f runs a script from a file';
    if (a === '-e' || a === '--expression') {
      explicit = true;
      if (args[i + 1] !== undefined) scripts.push(args[++i]!);
      continue;
    }
    if (a.startsWith('--expression=')) {
      explicit = true;
      scripts.push(a.slice('--expression='.length));
      continue;
    }
    const glued = /^-[nEsuzr]*e(.+)$/.exec(a);
    if (glued) {
      explicit = true;
      scripts.push(glued[1]!);
      continue;
    }
    if (a === '-l' || a === '--line-length') i++;
  }
  if (!explicit) {
    const first = args.find((a) => !a.startsWith('-'));
    if (first !== undefined) scripts.push(first);
  }
  for (const s of scripts) {
    const why = sedScriptHazard(s);
    if (why) return why;
  }
  return undefined;
}

/** The first command of a sed script that writes, executes or reads another file; undefined when none. Pure. */
export function sedScriptHazard(script: string): string | undefined {
  const n = script.length;
  let i = 0;
  const skipBlank = () => {
    while (i < n && /[\s;]/.test(script[i]!)) i++;
  };
  // Reads a delimited part starting after the delimiter; returns false when it never closes.
  const delimited = (delim: string): boolean => {
    while (i < n) {
      const c = script[i]!;
      if (c === '\\') {
        i += 2;
        continue;
      }
      i++;
      if (c === delim) return true;
      if (c === '\n') return false;
    }
    return false;
  };
  const toLineEnd = (alsoSemicolon: boolean) => {
    while (i < n && script[i] !== '\n' && !(alsoSemicolon && script[i] === ';')) i++;
  };
  const address = (): boolean => {
    const c = script[i];
    if (c === undefined) return true;
    if (/\d/.test(c)) {
      while (i < n && /[\d~]/.test(script[i]!)) i++;
      return true;
    }
    if (c === '$') {
      i++;
      return true;
    }
    if (c === '/' || c === '\\') {
      const delim = c === '\\' ? script[i + 1] : '/';
      if (delim === undefined) return false;
      i += c === '\\' ? 2 : 1;
      if (!delimited(delim)) return false;
      while (i < n && /[IM]/.test(script[i]!)) i++;
      return true;
    }
    return true;
  };
  for (;;) {
    skipBlank();
    if (i >= n) return undefined;
    if (!address()) return 'sed script with an address it cannot read';
    if (script[i] === ',') {
      i++;
      if (script[i] === '+' || script[i] === '~') i++;
      if (!address()) return 'sed script with an address it cannot read';
    }
    while (i < n && /[\s!]/.test(script[i]!)) i++;
    const cmd = script[i];
    if (cmd === undefined) return undefined;
    i++;
    switch (cmd) {
      case '{':
      case '}':
      case '=':
      case 'd':
      case 'D':
      case 'g':
      case 'G':
      case 'h':
      case 'H':
      case 'n':
      case 'N':
      case 'p':
      case 'P':
      case 'x':
      case 'z':
      case 'F':
        continue;
      case 'l':
      case 'L':
      case 'q':
      case 'Q':
        while (i < n && /[\s\d]/.test(script[i]!) && script[i] !== '\n') i++;
        continue;
      case '#':
      case 'a':
      case 'i':
      case 'c':
        // Text (or a comment) to the end of the line, continued by a trailing backslash.
        for (;;) {
          toLineEnd(false);
          if (i > 0 && script[i - 1] === '\\' && i < n) {
            i++;
            continue;
          }
          break;
        }
        continue;
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'v':
        toLineEnd(true);
        continue;
      case 's': {
        const delim = script[i];
        if (delim === undefined || delim === '\n' || delim === '\\') return 'sed s command it cannot read';
        i++;
        if (!delimited(delim) || !delimited(delim)) return 'sed s command it cannot read';
        const flagsStart = i;
        while (i < n && /[gpiImMe0-9w]/.test(script[i]!)) {
          if (script[i] === 'w') return 'sed s///w writes a file';
          i++;
        }
        if (script.slice(flagsStart, i).includes('e')) return 'sed s///e runs the pattern space as a command';
        continue;
      }
      case 'y': {
        const delim = script[i];
        if (delim === undefined || delim === '\n' || delim === '\\') return 'sed y command it cannot read';
        i++;
        if (!delimited(delim) || !delimited(delim)) return 'sed y command it cannot read';
        continue;
      }
      case 'e':
        return 'sed e runs a command';
      case 'w':
      case 'W':
        return 'sed w writes a file';
      case 'r':
      case 'R':
        return 'sed r reads another file';
      default:
        return `sed command ${JSON.stringify(cmd)} it does not know`;
    }
  }
}

/** Device paths that name no file of anyone's. */
const NEUTRAL_PATHS = new Set([
  '/dev/null',
  '/dev/stdin',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/zero',
  '/dev/urandom',
  '/dev/random',
]);

/**
 * Arguments of a command that name a path outside the working directory's reach: absolute,
 * home-relative (`~`, `~user`) or climbing with `..` — as a word, an option's value
 * (`--from-file=/etc/passwd`) or glued to a short option (`-f/etc/passwd`). The classifier
 * resolves them and calls a line that reads outside the project not read-only.
 */
export function pathArgumentsOf(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of withoutPatterns(words)) {
    if (namesPath(w)) {
      out.push(w);
      continue;
    }
    if (w.charCodeAt(0) !== 45 /* - */) continue;
    const eq = w.indexOf('=');
    const value = eq > 0 ? w.slice(eq + 1) : /^-[A-Za-z]./.test(w) ? w.slice(2) : undefined;
    if (value !== undefined && namesPath(value)) out.push(value);
  }
  return out;
}

/** `/…`, `~…`, or a `..` segment, other than the neutral devices. The cheap tests go first. */
function namesPath(c: string): boolean {
  const first = c.charCodeAt(0);
  if (first !== 47 /* / */ && first !== 126 /* ~ */ && !(c.includes('..') && /(^|\/)\.\.(\/|$)/.test(c))) {
    return false;
  }
  return !NEUTRAL_PATHS.has(c);
}

/** Commands whose first operand (or `-e` values) is a pattern or script, not a path. */
const PATTERN_FIRST = new Set(['sed', 'grep', 'egrep', 'fgrep', 'rg']);

/** The arguments of `words` that may name files: a sed script or grep pattern does not. */
function withoutPatterns(words: readonly string[]): readonly string[] {
  const args = words.slice(1);
  if (!PATTERN_FIRST.has(words[0] ?? '')) return args;
  const out: string[] = [];
  let explicit = false;
  let operandSeen = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-e' || a === '--expression' || a === '--regexp') {
      explicit = true;
      i++;
      continue;
    }
    if (a.startsWith('--expression=') || a.startsWith('--regexp=')) {
      explicit = true;
      continue;
    }
    if (!a.startsWith('-') && !operandSeen && !explicit) {
      operandSeen = true;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** `${IFS}`, `$IFS` and `${IFS…}`: what a shell turns into a word break. */
const IFS_EXPANSION = /\$\{IFS[^}]*\}|\$IFS(?![A-Za-z0-9_])/g;
/** Any other parameter expansion in a word. */
const EXPANSION = /\$(\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/g;

/** True when a word holds a parameter expansion (`$x`, `${x}`, `$IFS`): its value is not known. */
export function hasExpansion(word: string): boolean {
  return word.includes('$') && /\$(\{|[A-Za-z_0-9@*#?$!-])/.test(word);
}

/**
 * The commands a simple command may really run, besides how it reads (pure): the executable by
 * its name (`/bin/rm` → `rm`, `busybox rm` → `rm`), with `$IFS` turned into a break and other
 * expansions dropped (`rm${IFS}-rf` → `rm -rf`), `find … -delete` and `unlink` as the `rm` they
 * are, and `find -exec CMD …` as CMD. Deny and ask rules, and the destructive class, are judged
 * on these too; each is marked nested, so none of them is ever read-only or approved by an allow
 * rule.
 */
export function executableVariants(seg: ShellSegment): readonly ShellSegment[] {
  // Most commands have none: a plain name, no wrapper the splitter does not know, no expansion.
  const head0 = seg.words[0];
  if (head0 === undefined) return NO_VARIANTS;
  if (!VARIANT_HEADS.has(head0) && !head0.includes('/') && !seg.text.includes('$')) return NO_VARIANTS;
  const core = stripForwarders(seg.words);
  const out: string[][] = [];
  if (core.join(' ') !== seg.core) out.push(core);
  let words = core;
  if (words.some(hasExpansion)) {
    words = words
      .map((w) => w.replace(IFS_EXPANSION, ' ').replace(EXPANSION, ''))
      .join(' ')
      .split(/\s+/)
      .filter((w) => w !== '');
    out.push(words);
  }
  const head = words[0];
  if (head?.includes('/') && !head.endsWith('/')) {
    words = [head.slice(head.lastIndexOf('/') + 1), ...words.slice(1)];
    out.push(words);
  }
  const name = words[0];
  if (name === 'unlink') out.push(['rm', ...words.slice(1)]);
  if (name === 'find') {
    const paths = words
      .slice(1)
      .filter((w, i, all) => !w.startsWith('-') && (i === 0 || !all[i - 1]!.startsWith('-')));
    if (words.includes('-delete')) out.push(['rm', '-rf', ...paths]);
    for (let i = 1; i < words.length; i++) {
      if (/^-(exec|execdir|ok|okdir)$/.test(words[i]!)) {
        let j = i + 1;
        while (j < words.length && words[j] !== ';' && words[j] !== '+') j++;
        const cmd = words.slice(i + 1, j);
        if (cmd.length > 0) out.push(cmd);
        i = j;
      }
    }
  }
  const seen = new Set([seg.text, seg.core]);
  const variants: ShellSegment[] = [];
  for (const w of out) {
    const stripped = stripForwarders(w);
    const text = stripped.join(' ');
    if (stripped.length === 0 || seen.has(text)) continue;
    seen.add(text);
    variants.push({
      words: stripped,
      text,
      core: text,
      writes: [],
      reads: [],
      nested: true,
      riskyEnv: seg.riskyEnv,
    });
  }
  return variants;
}

const NO_VARIANTS: readonly ShellSegment[] = Object.freeze([]);

/** Wrappers that run the command named after them (and their own options). */
const FORWARDERS = new Set([
  'sudo',
  'doas',
  'xargs',
  'exec',
  'command',
  'builtin',
  'env',
  'busybox',
  'nohup',
  'time',
  'nice',
  'timeout',
  'stdbuf',
  'ionice',
  'setsid',
  'chroot',
  'unshare',
  'nsenter',
  'strace',
  'ltrace',
]);

/** First words that may have another reading: the wrappers, and the commands that delete or run. */
const VARIANT_HEADS = new Set([...FORWARDERS, 'find', 'unlink']);

function stripForwarders(words: readonly string[]): string[] {
  let i = 0;
  while (i < words.length) {
    const w = words[i]!;
    const base = w.includes('/') ? w.slice(w.lastIndexOf('/') + 1) : w;
    if (!FORWARDERS.has(base)) break;
    i++;
    while (i < words.length) {
      const x = words[i]!;
      if (x.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(x)) {
        i++;
        if (/^-[nsukIcPpU]$/.test(x) && i < words.length) i++;
        continue;
      }
      if (base === 'timeout' && /^\d+(\.\d+)?[smhd]?$/.test(x)) {
        i++;
        continue;
      }
      break;
    }
  }
  return words.slice(i);
}

/**
 * True when some command of the line names a path outside `projectRoot` in its arguments (see
 * {@link pathArgumentsOf}); `~user` always counts as outside. Such a line is not "safe to run
 * unasked", whatever the command.
 */
export function namesPathOutside(segments: readonly ShellSegment[], roots: PathRoots): boolean {
  const root = roots.projectRoot.replace(/\/$/, '');
  for (const seg of segments) {
    for (const p of pathArgumentsOf(seg.words)) {
      if (p.startsWith('~') && p !== '~' && !p.startsWith('~/')) return true;
      const abs = resolvePath(p, roots);
      if (abs !== root && !abs.startsWith(`${root}/`)) return true;
    }
  }
  return false;
}

/**
 * Compiles a shell rule specifier:
 * - `prefix:*` (suffix only) — the command is `prefix` or starts with `prefix ` (word boundary);
 * - with an unescaped `*` — a wildcard (`*` = any text; a trailing ` *` also matches the bare
 *   command, so `ls *` matches `ls`); `\*` is a literal star;
 * - otherwise — the exact command (Claude Code's reading; Qwen Code's word-prefix is spelled
 *   `prefix:*` here).
 * Whitespace runs in both rule and command are collapsed first.
 */
export function compileCommandPattern(specifier: string): (command: string) => boolean {
  const s = specifier.replace(/\s+/g, ' ').trim();
  if (s.endsWith(':*')) {
    const prefix = s.slice(0, -2).trimEnd();
    const withSpace = `${prefix} `;
    return (c) => c === prefix || c.startsWith(withSpace);
  }
  if (/(^|[^\\])\*/.test(s)) {
    let src = s;
    let optionalTail = false;
    if (src.endsWith(' *') && !src.endsWith('\\ *')) {
      optionalTail = true;
      src = src.slice(0, -2);
    }
    // Literal pieces between unescaped stars; matched with plain string searches, which is what
    // the per-call path needs (a regex with `.*` backtracks on every call).
    const pieces: string[] = [];
    let piece = '';
    for (let i = 0; i < src.length; i++) {
      const ch = src[i]!;
      if (ch === '\\' && src[i + 1] === '*') {
        piece += '*';
        i++;
      } else if (ch === '*') {
        pieces.push(piece);
        piece = '';
      } else piece += ch;
    }
    pieces.push(piece);
    if (!optionalTail) {
      // The common shapes get a straight-line test; the general loop covers the rest.
      const [head = '', mid = '', tail = ''] = pieces;
      if (pieces.length === 2) {
        const min = head.length + mid.length;
        return (c) => c.length >= min && c.startsWith(head) && c.endsWith(mid);
      }
      if (pieces.length === 3 && tail === '') {
        return (c) => c.startsWith(head) && c.indexOf(mid, head.length) >= 0;
      }
      return (c) => globMatches(pieces, c);
    }
    // `body *` also matches the bare `body`: the same pieces, or with ` ` + any text appended.
    if (pieces.length === 1) {
      // `cmd args *` without other stars: the bare command, or it followed by a space.
      const bare = pieces[0]!;
      const spaced = `${bare} `;
      return (c) => c === bare || c.startsWith(spaced);
    }
    const withTail = [...pieces.slice(0, -1), `${pieces[pieces.length - 1]!} `, ''];
    return (c) => globMatches(pieces, c) || globMatches(withTail, c);
  }
  const literal = s.replace(/\\\*/g, '*');
  return (c) => c === literal;
}

/**
 * Does `c` match literal `pieces` joined by `*` (any text, newlines included)? The first piece is
 * a prefix, the last a suffix, and the middle ones are found leftmost-first in order, which is
 * exact for a star-only glob.
 */
function globMatches(pieces: readonly string[], c: string): boolean {
  const last = pieces.length - 1;
  const head = pieces[0]!;
  if (last === 0) return c === head;
  const tail = pieces[last]!;
  if (c.length < head.length + tail.length || !c.startsWith(head)) return false;
  const end = c.length - tail.length;
  if (!c.endsWith(tail)) return false;
  let at = head.length;
  for (let k = 1; k < last; k++) {
    const p = pieces[k]!;
    const i = c.indexOf(p, at);
    if (i < 0 || i + p.length > end) return false;
    at = i + p.length;
  }
  return true;
}

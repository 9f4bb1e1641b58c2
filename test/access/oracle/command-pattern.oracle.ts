// Test-only oracle: the pre-optimisation implementation, kept verbatim so property tests can
// check the optimised code in src/access/ decides exactly the same.
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
    let body = '';
    let optionalTail = false;
    let src = s;
    if (src.endsWith(' *') && !src.endsWith('\\ *')) {
      optionalTail = true;
      src = src.slice(0, -2);
    }
    for (let i = 0; i < src.length; i++) {
      const ch = src[i]!;
      if (ch === '\\' && src[i + 1] === '*') {
        body += '\\*';
        i++;
      } else if (ch === '*') body += '.*';
      else body += ch.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    }
    const re = new RegExp(`^${body}${optionalTail ? '(?: .*)?' : ''}$`, 's');
    return (c) => re.test(c);
  }
  const literal = s.replace(/\\\*/g, '*');
  return (c) => c === literal;
}

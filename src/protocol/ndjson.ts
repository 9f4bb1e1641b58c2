/**
 * NDJSON framing. One JSON object per `\n`-terminated line; `\r\n` is accepted; blank lines are
 * skipped by the reader. A line longer than `maxLineChars` is never buffered whole: the decoder
 * keeps a short prefix (enough to read a `request_id`) and discards the rest up to the next
 * newline, so a hostile host cannot make the engine hold an unbounded line in memory.
 */

/** A decoded unit: a complete line, or the report of one that exceeded the limit. */
export type DecodedLine =
  | { readonly kind: 'line'; readonly text: string }
  | { readonly kind: 'oversized'; readonly prefix: string; readonly length: number };

/** Default cap: generous for file contents seeded through `seed_read_state`. */
export const DEFAULT_MAX_LINE_CHARS = 16 * 1024 * 1024;
const OVERSIZED_PREFIX_CHARS = 4096;

export class LineDecoder {
  private parts: string[] = [];
  private bufferedChars = 0;
  /** Set while discarding the tail of an oversized line. */
  private oversized: { prefix: string; length: number } | undefined;

  constructor(private readonly maxLineChars: number = DEFAULT_MAX_LINE_CHARS) {}

  /** Feeds a chunk (already decoded to text); returns the lines it completed. */
  push(chunk: string): DecodedLine[] {
    const out: DecodedLine[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf('\n', start);
      const piece = nl === -1 ? chunk.slice(start) : chunk.slice(start, nl);
      this.append(piece);
      if (nl === -1) break;
      this.finishLine(out);
      start = nl + 1;
    }
    return out;
  }

  /** Flushes a final line that had no trailing newline (stream ended). */
  end(): DecodedLine[] {
    const out: DecodedLine[] = [];
    if (this.bufferedChars > 0 || this.oversized) this.finishLine(out);
    return out;
  }

  private append(piece: string): void {
    if (piece.length === 0) return;
    if (this.oversized) {
      this.oversized.length += piece.length;
      return;
    }
    if (this.bufferedChars + piece.length > this.maxLineChars) {
      const head = this.parts.join('') + piece;
      this.oversized = {
        prefix: head.slice(0, OVERSIZED_PREFIX_CHARS),
        length: this.bufferedChars + piece.length,
      };
      this.parts = [];
      this.bufferedChars = 0;
      return;
    }
    this.parts.push(piece);
    this.bufferedChars += piece.length;
  }

  private finishLine(out: DecodedLine[]): void {
    if (this.oversized) {
      out.push({ kind: 'oversized', prefix: this.oversized.prefix, length: this.oversized.length });
      this.oversized = undefined;
      return;
    }
    let text = this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join('');
    this.parts = [];
    this.bufferedChars = 0;
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim().length === 0) return;
    out.push({ kind: 'line', text });
  }
}

/** Serialises one message as an NDJSON line. `JSON.stringify` escapes newlines inside strings. */
export function encodeLine(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

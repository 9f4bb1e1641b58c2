// A UUID in its canonical 8-4-4-4-12 form, not part of a longer token.
const UUID = /(?<![\dA-Za-z-])[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}(?![\dA-Za-z-])/gi;
const FILLER = 'u'.repeat(36);

/**
 * `text` with every canonical UUID replaced by as many letters (offsets unchanged), for
 * personal-data patterns to run on. A random UUID's hyphen-separated digit runs read as a phone or
 * a Luhn-valid card number about once in 300 ids ("53636186-3350-4e74-…"), and every task,
 * ticket, session and audit id is one; a number a person writes never has this shape.
 */
export function maskUuids(text: string): string {
  return text.includes('-') ? text.replace(UUID, FILLER) : text;
}

/** Where the canonical UUIDs of `text` are, from offset `from` on (what {@link maskUuids} masks). */
export function uuidSpans(text: string, from = 0): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  if (!text.includes('-')) return out;
  UUID.lastIndex = from;
  for (let m = UUID.exec(text); m !== null; m = UUID.exec(text)) {
    out.push({ start: m.index, end: m.index + m[0].length });
  }
  return out;
}

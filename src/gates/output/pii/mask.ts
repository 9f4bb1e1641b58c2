/** How a value is hidden. Kept readable enough for a person to recognise which record it was. */

/** Masks `value` keeping a short tail (digits-heavy values) or the first letter (words). */
export function maskValue(value: string): string {
  const at = value.indexOf('@');
  if (at > 0) return `${value[0]}***${value.slice(at)}`;
  const digits = value.replace(/\D/g, '').length;
  if (digits >= 7) {
    const keep = value.length >= 8 ? 4 : 2;
    return '*'.repeat(Math.max(3, value.length - keep)) + value.slice(value.length - keep);
  }
  const chars = [...value];
  if (chars.length <= 1) return '*';
  return chars[0] + '*'.repeat(Math.min(8, chars.length - 1));
}

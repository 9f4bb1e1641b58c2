/**
 * Folds the surface forms a user may type into one: NFKC turns full-width letters, digits and
 * punctuation into their ASCII forms; case is dropped; zero-width characters and variation selectors (a pasted answer's watermark) are removed (the
 * input gate does deeper normalisation — this keeps the router's features stable on its own).
 */
export function normalizeRequest(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u200b-\u200f\u2060\ufeff]|\p{Variation_Selector}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

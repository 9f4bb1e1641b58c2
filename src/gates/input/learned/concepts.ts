/**
 * Concept classes for the learned scorer (docs/gates.md "Concepts"). What makes a request for a
 * colleague's medical file or a payroll export to a personal mailbox an attack is the pairing of
 * kinds of words — another person and a private record, data and an outside destination, a
 * control and a verb that switches it off — whatever the exact words. A new writer's synonyms
 * are new n-grams the model never weighed; their class is not. So each word or phrase of the
 * lexicon (concept-lexicon.ts) adds an occurrence of its class, and each pair of classes that
 * meet in one sentence adds an occurrence of the pair (occurrences.ts).
 *
 * Entries are hashed exactly as the scan hashes the same words: an English entry is one word or
 * two (a word bigram), a Chinese entry two or three Han characters (a Han bigram or trigram).
 */
import { CONCEPT_LEXICON, type ConceptLexicon } from './concept-lexicon.js';
import {
  foldToken,
  han2Hash,
  han3Hash,
  isDigit,
  isHan,
  isLeetSign,
  isLetter,
  wordHash,
  wordPairHash,
} from './ngram-hash.js';

/** A lexicon that cannot mean what it says: an entry of the wrong shape or in two classes. */
export class ConceptLexiconError extends Error {
  constructor(
    message: string,
    readonly concept: string,
    readonly entry: string,
  ) {
    super(`concept lexicon, class ${concept}, entry ${JSON.stringify(entry)}: ${message}`);
    this.name = 'ConceptLexiconError';
  }
}

export type { ConceptLexicon };

/** The most classes a lexicon may have: a sentence's classes are one 32-bit mask. */
export const MAX_CONCEPTS = 30;

/**
 * Hash → class lookup: open addressing over 32-bit hashes, behind a 64 Ki-bit filter on the
 * hash's top bits so the common case (a word of no class) costs one array read.
 */
export class ConceptTable {
  private readonly keys: Int32Array;
  private readonly classes: Uint8Array;
  /**
   * One bit per value of a hash's top 16 bits: clear means no entry has such a hash. Public so the
   * scan can test it inline (`(filter[h >>> 19] >> ((h >>> 16) & 7)) & 1`) before calling classOf.
   */
  readonly filter = new Uint8Array(1 << 13);
  private readonly slotMask: number;
  /** Class names; class id k (1-based) is names[k - 1]. */
  readonly names: readonly string[];

  constructor(lexicon: ConceptLexicon) {
    this.names = Object.keys(lexicon);
    if (this.names.length > MAX_CONCEPTS)
      throw new ConceptLexiconError(`more than ${MAX_CONCEPTS} classes`, this.names.at(-1)!, '');
    let entries = 0;
    for (const name of this.names) entries += lexicon[name]!.en.length + lexicon[name]!.zh.length;
    let size = 1024;
    while (size < entries * 3) size *= 2;
    this.keys = new Int32Array(size);
    this.classes = new Uint8Array(size);
    this.slotMask = size - 1;
    for (let k = 0; k < this.names.length; k++) {
      const name = this.names[k]!;
      const { en, zh } = lexicon[name]!;
      for (const e of en) this.add(englishHash(e, name), k + 1, name, e);
      for (const e of zh) this.add(chineseHash(e, name), k + 1, name, e);
    }
  }

  private add(h: number, cls: number, name: string, entry: string): void {
    let s = (h ^ (h >>> 15)) & this.slotMask;
    for (let c = this.classes[s]!; c !== 0; c = this.classes[s]!) {
      if (this.keys[s] === (h | 0)) {
        if (c !== cls) throw new ConceptLexiconError(`also in class ${this.names[c - 1]}`, name, entry);
        return;
      }
      s = (s + 1) & this.slotMask;
    }
    this.keys[s] = h;
    this.classes[s] = cls;
    const top = h >>> 16;
    this.filter[top >>> 3]! |= 1 << (top & 7);
  }

  /** The class id (1-based) of a word, bigram or Han n-gram hash; 0 for none. */
  classOf(h: number): number {
    const top = h >>> 16;
    if ((this.filter[top >>> 3]! & (1 << (top & 7))) === 0) return 0;
    let s = (h ^ (h >>> 15)) & this.slotMask;
    for (let c = this.classes[s]!; c !== 0; c = this.classes[s]!) {
      if (this.keys[s] === (h | 0)) return c;
      s = (s + 1) & this.slotMask;
    }
    return 0;
  }
}

/** Scratch for one word of an entry. */
const units = new Uint16Array(64);

/** The hash the scan gives one word of an entry (its units folded as occurrences.ts folds them). */
function entryWordHash(entry: string, from: number, to: number, concept: string): number {
  if (to - from > units.length || to === from)
    throw new ConceptLexiconError('an English word is 1 to 64 letters', concept, entry);
  let letters = 0;
  let others = 0;
  for (let i = from; i < to; i++) {
    const c = entry.charCodeAt(i);
    if (isLetter(c)) letters++;
    else if (isDigit(c) || isLeetSign(c)) others++;
    else
      throw new ConceptLexiconError(
        'English entries hold lower-case letters and digits only',
        concept,
        entry,
      );
    units[i - from] = c;
  }
  foldToken(units.subarray(0, to - from), letters, others, units);
  return wordHash(units, to - from);
}

/** The hash the scan gives an English entry's one word or two. */
function englishHash(entry: string, concept: string): number {
  const space = entry.indexOf(' ');
  if (space < 0) return entryWordHash(entry, 0, entry.length, concept);
  if (entry.indexOf(' ', space + 1) >= 0)
    throw new ConceptLexiconError('an English entry is one word or two, single-spaced', concept, entry);
  return wordPairHash(
    entryWordHash(entry, 0, space, concept),
    entryWordHash(entry, space + 1, entry.length, concept),
  );
}

/** The hash the scan gives a Chinese entry's Han bigram or trigram. */
function chineseHash(entry: string, concept: string): number {
  const units = [...entry].map((ch) => ch.charCodeAt(0));
  if (units.length < 2 || units.length > 3 || units.some((c) => !isHan(c)) || entry.length !== units.length)
    throw new ConceptLexiconError('a Chinese entry is two or three Han characters', concept, entry);
  return units.length === 2 ? han2Hash(units[0]!, units[1]!) : han3Hash(units[0]!, units[1]!, units[2]!);
}

let shared: ConceptTable | undefined;

/** The shipped lexicon's table (built on first use, well under a millisecond). */
export function conceptTable(): ConceptTable {
  shared ??= new ConceptTable(CONCEPT_LEXICON);
  return shared;
}

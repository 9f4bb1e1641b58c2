import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeText } from '../../src/gates/input/index.js';
import { CONCEPT_LEXICON } from '../../src/gates/input/learned/concept-lexicon.js';
import {
  ConceptLexiconError,
  ConceptTable,
  conceptTable,
  MAX_CONCEPTS,
} from '../../src/gates/input/learned/concepts.js';
import { FEATURE_MASK, mix, NS_CONCEPT, NS_CONCEPT_PAIR } from '../../src/gates/input/learned/ngram-hash.js';
import { occurrencesOf } from '../../src/gates/input/learned/occurrences.js';

const classBucket = (cls: number) => (mix(NS_CONCEPT, cls) >>> 0) & FEATURE_MASK;
const pairBucket = (a: number, b: number) => (mix(mix(NS_CONCEPT_PAIR, a), b) >>> 0) & FEATURE_MASK;

/** The occurrences of `text` as [bucket, pos] pairs (the shared buffers copied out). */
function occ(text: string, table: ConceptTable | null): Array<[number, number]> {
  const o = occurrencesOf(text, table);
  return Array.from({ length: o.n }, (_, i) => [o.bucket[i]!, o.pos[i]!]);
}

// A small lexicon of our own for exact expectations; class ids are 1-based in key order.
const SMALL = new ConceptTable({
  PERSON: { en: ['colleague', 'her'], zh: ['同事'] },
  RECORD: { en: ['salary', 'home address'], zh: ['工资', '身份证'] },
  CURIOUS: { en: ['just curious'], zh: [] },
});

describe('concept table', () => {
  it('the shipped lexicon loads: every entry in normalised form, in one class, of the right shape', () => {
    const table = conceptTable();
    expect(table.names.length).toBeGreaterThan(10);
    expect(table.names.length).toBeLessThanOrEqual(MAX_CONCEPTS);
    for (const [name, { en, zh }] of Object.entries(CONCEPT_LEXICON))
      for (const e of [...en, ...zh]) expect(normalizeText(e).text, `${name}: ${e}`).toBe(e);
  });

  it.each([
    ['three English words', { A: { en: ['keep it quiet'], zh: [] } }, /one word or two/],
    ['punctuation', { A: { en: ["don't"], zh: [] } }, /letters and digits only/],
    ['one Han character', { A: { en: [], zh: ['薪'] } }, /two or three Han/],
    ['four Han characters', { A: { en: [], zh: ['聊天记录'] } }, /two or three Han/],
    ['Latin in a Chinese entry', { A: { en: [], zh: ['hr部'] } }, /two or three Han/],
    [
      'an entry in two classes',
      { A: { en: ['salary'], zh: [] }, B: { en: ['salary'], zh: [] } },
      /also in class A/,
    ],
  ])('a lexicon with %s fails to load, naming class and entry', (_n, lexicon, message) => {
    expect(() => new ConceptTable(lexicon)).toThrow(ConceptLexiconError);
    expect(() => new ConceptTable(lexicon)).toThrow(message);
  });

  it('a lexicon with too many classes fails to load', () => {
    const lexicon = Object.fromEntries(
      Array.from({ length: MAX_CONCEPTS + 1 }, (_, k) => [
        `C${k}`,
        { en: [`w${'a'.repeat(k + 1)}`], zh: [] },
      ]),
    );
    expect(() => new ConceptTable(lexicon)).toThrow(/more than 30 classes/);
  });
});

describe('concept occurrences', () => {
  it.each([
    ['a word', 'show the salary', [classBucket(2)]],
    ['a two-word entry, as a word bigram', 'what is the home address', [classBucket(2)]],
    ['a Han bigram and trigram', '查一下身份证', [classBucket(2)]],
    [
      'two classes in one sentence pair once',
      'her salary, her salary',
      [classBucket(1), classBucket(2), pairBucket(1, 2), classBucket(1), classBucket(2)],
    ],
    ['a sentence end parts them', 'ask her. the salary', [classBucket(1), classBucket(2)]],
    [
      'three classes: each new class pairs with those before',
      'colleague salary just curious',
      [classBucket(1), classBucket(2), pairBucket(1, 2), classBucket(3), pairBucket(2, 3), pairBucket(1, 3)],
    ],
    ['Chinese pair', '同事的工资', [classBucket(1), classBucket(2), pairBucket(1, 2)]],
    ['no class', 'book a room for friday', []],
  ])('%s', (_n, text, want) => {
    const plain = new Set(occ(text, null).map(([b]) => b));
    const extra = occ(text, SMALL).map(([b]) => b);
    // the concept occurrences are what the table adds to the n-grams, in order
    const added = [...extra];
    for (const b of occ(text, null).map(([x]) => x)) added.splice(added.indexOf(b), 1);
    expect(added).toEqual(want);
    expect(plain.size).toBeGreaterThan(0);
  });

  it('adds occurrences and never reorders: positions stay non-decreasing and the n-grams are unchanged', () => {
    const piece = fc.constantFrom(
      'her ',
      'salary',
      ' ',
      '.',
      '同事',
      '工资',
      '身份证',
      'home address ',
      'x',
      '\n',
      'just curious',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        const withConcepts = occ(text, conceptTable());
        for (let i = 1; i < withConcepts.length; i++)
          expect(withConcepts[i]![1]).toBeGreaterThanOrEqual(withConcepts[i - 1]![1]);
        const concept = new Set<number>();
        for (let c = 1; c <= conceptTable().names.length; c++) {
          concept.add(classBucket(c));
          for (let d = c + 1; d <= conceptTable().names.length; d++) concept.add(pairBucket(c, d));
        }
        const plain = occ(text, null);
        // removing the concept occurrences leaves exactly the plain n-grams (unless a bucket collides)
        const stripped = withConcepts.filter(([b]) => !concept.has(b));
        const plainNoCollide = plain.filter(([b]) => !concept.has(b));
        expect(stripped).toEqual(plainNoCollide);
      }),
    );
  });
});

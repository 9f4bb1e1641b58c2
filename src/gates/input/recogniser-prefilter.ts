/**
 * Keyword pre-filter in front of the recognisers. Every recogniser's regex is analysed once
 * (`requiredLiterals`): a match must contain one literal of each of its groups. One
 * Aho-Corasick pass over the normalised text finds which literals occur; a recogniser whose
 * groups are not all satisfied cannot match, so its regex is skipped. Skipping is therefore
 * exact — results are the same as running every regex — only faster on ordinary text.
 */
import { KeywordIndex } from './keyword-index.js';
import { patternKey, requiredLiterals } from './required-literals.js';

/** Requirements derived ahead of time, keyed by `patternKey`; `null` = no pre-filter. */
export type PrecomputedRequirements = ReadonlyArray<
  readonly [string, ReadonlyArray<readonly string[]> | null]
>;

export class RecogniserPrefilter {
  private readonly index: KeywordIndex;
  /** The literals of the index, by keyword id. */
  readonly keywords: readonly string[];
  /** Keyword id → ids of the groups it satisfies. */
  private readonly groupsOf: ReadonlyArray<Int32Array>;
  /** Recogniser → its group ids; `undefined` means the recogniser always runs. */
  private readonly needs: ReadonlyArray<Int32Array | undefined>;
  private readonly found: Uint8Array;
  private readonly foundIds: Int32Array;
  private readonly groupHit: Uint8Array;

  /**
   * @param precomputed requirements derived earlier by `requiredLiterals` (saves the analysis at
   * start-up); used only for a pattern whose flags and source equal the entry's key.
   * @param loadIndex an index built earlier for exactly these keywords (e.g. at build time), or
   * undefined to build one.
   */
  constructor(
    readonly recognisers: ReadonlyArray<{ readonly pattern: RegExp }>,
    precomputed: PrecomputedRequirements = [],
    loadIndex: (keywords: readonly string[]) => KeywordIndex | undefined = () => undefined,
  ) {
    const known = new Map(precomputed);
    const keywordIds = new Map<string, number>();
    const groupsOf: number[][] = [];
    let groups = 0;
    this.needs = recognisers.map((rec) => {
      const key = patternKey(rec.pattern);
      const req = known.has(key) ? (known.get(key) ?? undefined) : requiredLiterals(rec.pattern);
      if (!req) return undefined;
      const ids = new Int32Array(req.length);
      req.forEach((literals, k) => {
        const g = groups++;
        ids[k] = g;
        for (const lit of literals) {
          let id = keywordIds.get(lit);
          if (id === undefined) {
            id = keywordIds.size;
            keywordIds.set(lit, id);
            groupsOf.push([]);
          }
          groupsOf[id]!.push(g);
        }
      });
      return ids;
    });
    const keywords = [...keywordIds.keys()];
    this.index = loadIndex(keywords) ?? KeywordIndex.build(keywords);
    this.keywords = keywords;
    this.groupsOf = groupsOf.map((g) => Int32Array.from(g));
    this.found = new Uint8Array(keywordIds.size);
    this.foundIds = new Int32Array(keywordIds.size);
    this.groupHit = new Uint8Array(groups);
  }

  /** The keyword index as bytes, for `KeywordIndex.fromBytes` (written at build time). */
  indexBytes(): Uint8Array {
    return this.index.toBytes(this.keywords);
  }

  /**
   * Writes into `out` (length = number of recognisers) 1 for each recogniser that may match
   * `text` and 0 for each that cannot. Not re-entrant (shared scratch buffers); scanning is
   * synchronous, so calls never interleave.
   */
  select(text: string, out: Uint8Array): void {
    const { found, foundIds, groupHit, groupsOf, needs } = this;
    groupHit.fill(0);
    const n = this.index.mark(text, found, foundIds);
    for (let j = 0; j < n; j++) {
      const id = foundIds[j]!;
      found[id] = 0; // reset for the next call
      const gs = groupsOf[id]!;
      for (let k = 0; k < gs.length; k++) groupHit[gs[k]!] = 1;
    }
    for (let r = 0; r < needs.length; r++) {
      const need = needs[r];
      let ok = 1;
      if (need !== undefined) {
        for (let k = 0; k < need.length; k++) {
          if (groupHit[need[k]!] === 0) {
            ok = 0;
            break;
          }
        }
      }
      out[r] = ok;
    }
  }
}

import { readFileSync } from 'node:fs';
import { bundleArtifact, runningFromBundle } from '../../core/index.js';
import { KeywordIndex } from './keyword-index.js';

/** File name of the injection pre-filter's index beside the bundled CLI. */
export const KEYWORD_INDEX_ARTIFACT = 'keyword-index.bin';
/** The same for the learned scorer's cues. */
export const CUE_KEYWORD_INDEX_ARTIFACT = 'cue-keyword-index.bin';

/**
 * The injection pre-filter's keyword index as `npm run build` wrote it (dist/bundle/), if it was
 * built from exactly `keywords`; otherwise undefined and the caller builds it (tens of
 * milliseconds in a cold process, which every one-shot `twinline scan` would pay). Bundled CLI only.
 */
export function prebuiltKeywordIndex(
  keywords: readonly string[],
  artifact: string = KEYWORD_INDEX_ARTIFACT,
): KeywordIndex | undefined {
  if (!runningFromBundle()) return undefined;
  try {
    return KeywordIndex.fromBytes(readFileSync(bundleArtifact(artifact)), keywords);
  } catch {
    // not built (tsc output only) or unreadable: build it
    return undefined;
  }
}

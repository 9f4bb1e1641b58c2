/**
 * Splits a turn's calls into batches that run one after another: consecutive calls whose
 * manifests are concurrency-safe share a batch (run in parallel); any other call is a batch of
 * its own. Order between batches is the model's order. Pure.
 */
export function callBatches<T>(calls: readonly T[], isConcurrencySafe: (call: T) => boolean): T[][] {
  const batches: T[][] = [];
  let parallel: T[] | undefined;
  for (const call of calls) {
    if (isConcurrencySafe(call)) {
      if (!parallel) {
        parallel = [];
        batches.push(parallel);
      }
      parallel.push(call);
    } else {
      parallel = undefined;
      batches.push([call]);
    }
  }
  return batches;
}

#!/usr/bin/env node
// A plain JS entry so hosts can spawn `node bin/twinline.js` without a TypeScript loader.
// `npm run build` emits the code-split bundle (dist/bundle/, one chunk per mode: fewer files to
// resolve and load at start-up) after the tsc output; the tsc output is used instead when the
// bundle is absent or older than the last tsc run (someone ran tsc alone). The one-shot commands
// (check, route, scan) run from their own code-cached bundle when it is current (bin/one-shot.js).
import { builtAfterTsc, loadOneShot, oneShotBundle } from './one-shot.js';

function bundleIfCurrent() {
  const bundle = new URL('../dist/bundle/main.js', import.meta.url);
  return builtAfterTsc(bundle) ? bundle.href : undefined;
}

async function entry() {
  const oneShot = oneShotBundle(process.argv[2]);
  if (oneShot) return loadOneShot(oneShot).exports.mainOneShot;
  return (await import(bundleIfCurrent() ?? '../dist/cli/main.js')).main;
}

const main = await entry();
main(process.argv).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`twinline: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);

#!/usr/bin/env node
// A plain JS entry so hosts can spawn `node bin/twinline.js` without a TypeScript loader. CommonJS
// (bin/package.json): the one-shot commands (check, route, scan) and the stream-json engine run
// from their own code-cached bundles when current (bin/one-shot.js); one-shot commands then never
// start Node's ES module loader.
// Everything else imports the code-split ES module bundle `npm run build` emits (dist/bundle/, one
// chunk per mode) or, when that is absent or older than the last tsc run, the tsc output.
'use strict';
const { builtAfterTsc, loadOneShot, oneShotBundle } = require('./one-shot.js');

async function entry() {
  const oneShot = oneShotBundle(process.argv);
  if (oneShot) {
    try {
      return loadOneShot(oneShot).exports.mainOneShot;
    } catch {
      // a build half-removed (the manifest names a file that is gone): the full CLI below
    }
  }
  const bundle = require.resolve('../dist/bundle/main.js');
  return (await import(builtAfterTsc(bundle) ? bundle : require.resolve('../dist/cli/main.js'))).main;
}

entry()
  .then((main) => main(process.argv))
  .then(
    (code) => {
      if (typeof code === 'number') process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`twinline: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );

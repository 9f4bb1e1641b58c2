#!/usr/bin/env node
// A plain JS entry so hosts can spawn `node bin/twinline.js` without a TypeScript loader.
import { main } from '../dist/cli/main.js';

main(process.argv).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`twinline: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);

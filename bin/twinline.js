#!/usr/bin/env node
// A plain JS entry so hosts can spawn `node bin/twinline.js` without a TypeScript loader.
// `npm run build` emits the code-split bundle (dist/bundle/, one chunk per mode: fewer files to
// resolve and load at start-up) after the tsc output; the tsc output is used instead when the
// bundle is absent or older than the last tsc run (someone ran tsc alone).
import { statSync } from 'node:fs';

function bundleIfCurrent() {
  const bundle = new URL('../dist/bundle/main.js', import.meta.url);
  const built = statSync(bundle, { throwIfNoEntry: false });
  if (!built) return undefined;
  const tsc = statSync(new URL('../dist/.tsbuildinfo', import.meta.url), { throwIfNoEntry: false });
  return !tsc || built.mtimeMs >= tsc.mtimeMs ? bundle.href : undefined;
}

const { main } = await import(bundleIfCurrent() ?? '../dist/cli/main.js');

main(process.argv).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`twinline: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);

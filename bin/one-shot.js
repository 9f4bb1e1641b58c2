// The code-cached entries (docs/startup.md). `twinline check|route|scan` run once per call and hosts spawn
// the stream-json engine once per session, so start-up is most of what a user waits for, and most
// of that start-up is V8 compiling JavaScript. Node 20 has no compile cache for ES modules, so
// `npm run build` also writes each of these entries as one CommonJS file
// (dist/bundle/one-shot-<entry>-<hash>.cjs) with a V8 code cache taken after running it once
// (<file>.cache), and names the files in dist/bundle/one-shot.json.
// Here a file is compiled with `vm.Script` and its cache: V8 skips parsing and compiling whatever
// the cache holds. A cache V8 rejects (another Node version, other V8 flags) only costs the compile.
'use strict';
const { readFileSync, statSync } = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const vm = require('node:vm');

/** The commands with a one-shot bundle (scripts/build-bundle.mjs builds one for each). */
const ONE_SHOT_COMMANDS = ['check', 'route', 'scan'];

/** The stream-json mode (hosts spawn the engine per session) has a code-cached bundle too. */
const STREAM_JSON = 'stream-json';

/** Whether argv asks for the stream-json protocol: the same test as src/protocol/argv.ts. */
function isStreamJsonInvocation(argv) {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--input-format=stream-json' || a === '--output-format=stream-json') return true;
    if ((a === '--input-format' || a === '--output-format') && argv[i + 1] === 'stream-json') return true;
  }
  return false;
}

/** Which code-cached bundle serves `argv` (a one-shot command or stream-json), if any. */
function cachedEntryFor(argv) {
  if (isStreamJsonInvocation(argv)) return STREAM_JSON;
  return ONE_SHOT_COMMANDS.includes(argv[2]) ? argv[2] : undefined;
}

const DIR = join(__dirname, '../dist/bundle');
const MANIFEST = join(DIR, 'one-shot.json');

/** Whether a file of dist/ exists and is not older than the last tsc run (someone ran tsc alone). */
function builtAfterTsc(file) {
  const built = statSync(file, { throwIfNoEntry: false });
  if (!built) return false;
  const tsc = statSync(join(__dirname, '../dist/.tsbuildinfo'), { throwIfNoEntry: false });
  return !tsc || built.mtimeMs >= tsc.mtimeMs;
}

/** The file name of the current code-cached bundle serving `argv`, or undefined when there is none to use. */
function oneShotBundle(argv) {
  const entry = cachedEntryFor(argv);
  if (!entry || !builtAfterTsc(MANIFEST)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
    // caches taken by another V8 would be rejected, leaving a whole-bundle compile: the ES module
    // bundle, which compiles only what runs, is then the faster start
    if (manifest.v8 !== process.versions.v8) return undefined;
    return manifest.bundles[entry];
  } catch {
    return undefined;
  }
}

/**
 * Compiles and runs a one-shot bundle (a file name in dist/bundle/), with its code cache unless
 * `useCache` is false; returns its exports (`mainOneShot(argv)`) and the compiled script (the
 * build takes the code cache from it).
 */
function loadOneShot(bundle, { useCache = true } = {}) {
  const file = join(DIR, bundle);
  const source = readFileSync(file, 'utf8');
  let cachedData;
  if (useCache) {
    try {
      cachedData = readFileSync(`${file}.cache`);
    } catch {
      // no cache written: compile from source
    }
  }
  // The CommonJS wrapper, on the first line so the source map's lines still match.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, DIR);
  // The bundle cannot run import() itself (a V8 code cache on Node 20 drops the callback): it
  // loads packages and user modules through this one, which Node compiled as usual.
  module.exports.setExternalImporter((specifier) => import(specifier));
  return {
    exports: module.exports,
    script,
    cacheRejected: cachedData ? script.cachedDataRejected : undefined,
  };
}

module.exports = {
  ONE_SHOT_COMMANDS,
  STREAM_JSON,
  builtAfterTsc,
  isStreamJsonInvocation,
  oneShotBundle,
  loadOneShot,
};

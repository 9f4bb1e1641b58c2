/**
 * Body of the worker thread that runs a `grep` search. It is plain CommonJS in a string so the
 * same code runs from `src` (under tsx/vitest) and from `dist`. A model-written regex can
 * backtrack for ever; in a worker it blocks only that thread, which the caller terminates on
 * timeout.
 */
export const GREP_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { files, source, flags, maxMatches, maxFileBytes, maxLineChars } = workerData;
const re = new RegExp(source, flags);
const matches = [];
let truncated = false;
let filesScanned = 0;
outer: for (const file of files) {
  let buf;
  try { buf = readFileSync(file); } catch { continue; }
  if (buf.length > maxFileBytes || buf.subarray(0, 8192).includes(0)) continue;
  filesScanned++;
  const lines = buf.toString('utf8').split('\\n');
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i];
    if (re.test(text)) {
      if (matches.length >= maxMatches) { truncated = true; break outer; }
      matches.push({ file, line: i + 1, text: text.length > maxLineChars ? text.slice(0, maxLineChars) + '…' : text });
    }
  }
}
parentPort.postMessage({ matches, truncated, filesScanned });
`;

// Module-load trace for any twinline mode (issue 11: keep a module budget per mode).
//
//   TWINLINE_TRACE_IMPORTS=/tmp/modules.txt node --import ./scripts/trace-imports.mjs bin/twinline.js route "hi"
//
// Appends every module URL the process loads to the file named by TWINLINE_TRACE_IMPORTS (stderr
// when unset), in load order. Files of the CLI bundle (dist/bundle/) stand for the sources inlined
// in them: dist/bundle/meta.json lists those. test/startup/ asserts the per-mode boundaries.
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function load(url, context, next) {
  if (file) appendFileSync(file, url + '\\n');
  else process.stderr.write('import ' + url + '\\n');
  return next(url, context);
}
`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, {
  data: { file: process.env.TWINLINE_TRACE_IMPORTS || undefined },
});

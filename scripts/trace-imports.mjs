// Module-load trace for any twinline mode (docs/startup.md: every mode keeps a module budget).
//
//   TWINLINE_TRACE_IMPORTS=/tmp/modules.txt node --import ./scripts/trace-imports.mjs bin/twinline.js route "hi"
//
// Appends every module URL the process loads to the file named by TWINLINE_TRACE_IMPORTS (stderr
// when unset), in load order: ES modules (loader hooks, beside the program), CommonJS modules
// (`require`), scripts compiled with `vm.Script` under a file name (the code-cached one-shot
// bundles of bin/one-shot.js) and the modules such a bundle runs (`bundle-module:<source>`). Files of the CLI bundle (dist/bundle/) stand for the sources inlined
// in them: dist/bundle/meta.json lists those. test/startup/ asserts the per-mode boundaries.
import { appendFileSync } from 'node:fs';
import { Module, register } from 'node:module';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

const file = process.env.TWINLINE_TRACE_IMPORTS || undefined;

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
register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { file } });

function record(url) {
  if (file) appendFileSync(file, `${url}\n`);
  else process.stderr.write(`load ${url}\n`);
}

const toUrl = (path) =>
  isAbsolute(path) ? pathToFileURL(path).href : path.startsWith('node:') ? path : `node:${path}`;

const load = Module._load;
Module._load = function traced(request, parent, isMain) {
  const exports = load.call(this, request, parent, isMain);
  try {
    record(toUrl(Module._resolveFilename(request, parent, isMain)));
  } catch {
    // resolvable by the loader only (e.g. a built-in with no file): already loaded above
  }
  return exports;
};

// Modules of a code-cached one-shot bundle report themselves when they first run (see
// traceModuleInits in scripts/build-bundle.mjs); the bundle file itself stands only for the
// modules it runs as soon as it loads.
globalThis[Symbol.for('twinline.moduleInit')] = (name) => record(`bundle-module:${name}`);

const Script = vm.Script;
vm.Script = class TracedScript extends Script {
  constructor(code, options) {
    super(code, options);
    const filename = typeof options === 'string' ? options : options?.filename;
    if (filename && isAbsolute(filename)) record(pathToFileURL(filename).href);
  }
};

// The first write to process.stdout is marked in the trace (`output:first-write`), so a test can
// tell exactly what was loaded before a program answered, however late it reads the trace. The
// getter is wrapped, not called: the stream is still created only if the program asks for it.
export const FIRST_OUTPUT_MARK = 'output:first-write';
const stdoutGetter = Object.getOwnPropertyDescriptor(process, 'stdout')?.get;
if (stdoutGetter) {
  let wrapped;
  Object.defineProperty(process, 'stdout', {
    configurable: true,
    enumerable: true,
    get() {
      const stream = stdoutGetter.call(process);
      if (wrapped !== stream) {
        wrapped = stream;
        const write = stream.write;
        let marked = false;
        stream.write = function markedWrite(...args) {
          if (!marked) {
            marked = true;
            record(FIRST_OUTPUT_MARK);
          }
          return write.apply(this, args);
        };
      }
      return stream;
    },
  });
}

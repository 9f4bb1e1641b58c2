import { createRequire } from 'node:module';
import { runningFromBundle } from './bundle-artifacts.js';

type YamlPackage = typeof import('yaml');

let loaded: YamlPackage | undefined;

/**
 * The `yaml` package, loaded on first use. Most runs never parse YAML (the office domain and its
 * policy come from the build-time snapshot), and the parser is the second-largest thing the CLI
 * would otherwise compile at start-up (docs/startup.md). Loading must stay synchronous because config
 * loading is, hence `require`: the bundled CLI requires its own single-file copy
 * (dist/bundle/yaml.cjs, written by scripts/build-bundle.mjs), everything else the package.
 */
export function yamlPackage(): YamlPackage {
  if (loaded === undefined) {
    const require = createRequire(import.meta.url);
    loaded = (runningFromBundle() ? require('./yaml.cjs') : require('yaml')) as YamlPackage;
  }
  return loaded;
}

/** A parsed YAML text with what error messages need: lines of the first syntax error and of nodes. */
export interface LinedYaml {
  readonly doc: import('yaml').Document.Parsed;
  /** The first syntax error: its message's first line and its 1-based line in the text. */
  readonly syntaxError: { readonly message: string; readonly line: number } | undefined;
  /** The line of the deepest node along `path` that the document has (undefined: none, not even the root). */
  lineOf(path: readonly PropertyKey[]): number | undefined;
  /** The 1-based line of a character offset in the text. */
  lineAt(offset: number): number;
}

/**
 * Parses YAML text keeping line numbers, for loaders whose errors must name `file:line` (config
 * files, policies, eval suites). The caller turns `syntaxError` into its own typed error.
 */
export function parseYamlWithLineNumbers(text: string): LinedYaml {
  const { isNode, LineCounter, parseDocument } = yamlPackage();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const first = doc.errors[0];
  const lineAt = (offset: number) => lines.linePos(offset).line;
  return {
    doc,
    lineAt,
    syntaxError: first
      ? { message: first.message.split('\n')[0] ?? 'invalid YAML', line: lineAt(first.pos[0]) }
      : undefined,
    lineOf(path) {
      const keys = path.map((p) => (typeof p === 'symbol' ? String(p) : p));
      for (let depth = keys.length; depth >= 0; depth--) {
        const node = doc.getIn(keys.slice(0, depth), true);
        if (isNode(node) && node.range) return lineAt(node.range[0]);
      }
      return undefined;
    },
  };
}

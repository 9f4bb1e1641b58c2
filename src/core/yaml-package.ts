import { createRequire } from 'node:module';
import { runningFromBundle } from './bundle-artifacts.js';

type YamlPackage = typeof import('yaml');

let loaded: YamlPackage | undefined;

/**
 * The `yaml` package, loaded on first use. Most runs never parse YAML (the office domain and its
 * policy come from the build-time snapshot), and the parser is the second-largest thing the CLI
 * would otherwise compile at start-up (issue 11). Loading must stay synchronous because config
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

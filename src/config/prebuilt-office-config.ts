import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleArtifact, packageRoot, runningFromBundle, sourcesMatch } from '../core/index.js';
import { resolveDataDir } from './data-dir.js';
import type { LoadConfigOptions, TwinlineConfig } from './load-config.js';

interface Snapshot {
  readonly sources: readonly string[];
  /** The sources' text when built, in the same order. */
  readonly contents: readonly string[];
  readonly config: TwinlineConfig;
}

/**
 * What `loadOfficeDomain()` returns, from the snapshot `npm run build` took of it
 * (dist/bundle/office-config.json), when the office YAML files still hold what was loaded then;
 * otherwise undefined and the caller parses the YAML. Paths the loader derived from the working
 * directory or the package root are re-rooted at the working directory and this package. Bundled CLI only.
 */
export function prebuiltOfficeDomain(options: LoadConfigOptions = {}): TwinlineConfig | undefined {
  if (!runningFromBundle()) return undefined;
  try {
    // the loader resolves some paths against the process's working directory
    const cwd = process.cwd();
    const root = packageRoot();
    const snapshot = JSON.parse(readFileSync(bundleArtifact('office-config.json'), 'utf8'), (_key, value) => {
      if (typeof value !== 'string' || !value.startsWith('\0')) return value;
      if (value.startsWith('\0cwd')) return join(cwd, value.slice(4));
      if (value.startsWith('\0root')) return join(root, value.slice(5));
      return value;
    }) as Snapshot;
    if (!sourcesMatch(snapshot.sources, snapshot.contents)) return undefined;
    // The data folder follows this run's --data-dir and TWINLINE_HOME, not the build's.
    const dataDir = resolveDataDir({
      ...(options.dataDir !== undefined ? { flag: options.dataDir } : {}),
      env: options.env ?? process.env,
      configFile: snapshot.config.file,
      builtin: true,
      cwd,
    });
    return { ...snapshot.config, dataDir };
  } catch {
    // no snapshot or a source gone: load the YAML as usual
    return undefined;
  }
}

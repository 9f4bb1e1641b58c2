import { dirname, join, resolve } from 'node:path';

/** Name of the data folder Twinline creates beside a config file. */
export const DATA_FOLDER = '.twinline';

/** Inputs of {@link resolveDataDir}, strongest first. */
export interface DataDirInputs {
  /** `--data-dir`, relative to the working directory. */
  readonly flag?: string;
  /** Read for `TWINLINE_HOME` (relative to the working directory). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `dataDir` of the config file, already absolute. */
  readonly configured?: string;
  /** The config file, absolute. */
  readonly configFile: string;
  /** The config file is the built-in sample, inside the installed package. */
  readonly builtin: boolean;
  readonly cwd?: string;
}

/**
 * The data folder (store, watermark key, tool data) of a configuration: `--data-dir`, else
 * `TWINLINE_HOME`, else the file's `dataDir`, else `.twinline` beside the file — so every
 * command run with the same config finds the same database from any working directory. The
 * built-in sample's file sits inside the installed package (which `npm ci` replaces and may be
 * read-only), so its default is `.twinline` of the working directory instead (docs/server.md,
 * "Data folder"). Pure apart from the working directory.
 */
export function resolveDataDir(inputs: DataDirInputs): string {
  const cwd = inputs.cwd ?? process.cwd();
  if (inputs.flag) return resolve(cwd, inputs.flag);
  const home = inputs.env.TWINLINE_HOME;
  if (home) return resolve(cwd, home);
  if (inputs.configured) return inputs.configured;
  return inputs.builtin ? resolve(cwd, DATA_FOLDER) : join(dirname(inputs.configFile), DATA_FOLDER);
}

/** What the store of a configuration opens: a URL, or a SQLite file (absolute). */
export type ConfiguredStore = { readonly url: string } | { readonly sqliteFile: string };

/**
 * Where a configuration's store is: `TWINLINE_DATABASE_URL`, else the file's `store`, else
 * `twinline.sqlite` in the data folder. Every door that opens the store asks this.
 */
export function configuredStore(
  config: {
    readonly dataDir: string;
    readonly store: { readonly sqliteFile?: string; readonly url?: string };
  },
  env: Readonly<Record<string, string | undefined>> = process.env,
): ConfiguredStore {
  const url = env.TWINLINE_DATABASE_URL || config.store.url;
  if (url) return { url };
  return { sqliteFile: config.store.sqliteFile ?? join(config.dataDir, 'twinline.sqlite') };
}

import {
  type ConfiguredStore,
  configSource,
  configuredStore,
  loadConfig,
  type TwinlineConfig,
} from '../../config/index.js';

/** The options every command that reads the config (and the store) takes. */
export interface ConfigOptions {
  /** `--config`. */
  readonly config?: string;
  /** `--data-dir`. */
  readonly dataDir?: string;
}

/**
 * The config a command runs on, chosen by the one rule every door follows (`configSource`), with
 * the data folder from `--data-dir`, `TWINLINE_HOME` or beside the file.
 */
export function loadCommandConfig(opts: ConfigOptions): TwinlineConfig {
  const source = configSource(opts.config);
  return loadConfig(source.file, opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {});
}

/** Where the store is, in words (`sqlite /x/twinline.sqlite`, `postgres`). */
export function describeStore(store: ConfiguredStore): string {
  if ('sqliteFile' in store) return `sqlite ${store.sqliteFile}`;
  return /^postgres(ql)?:/i.test(store.url)
    ? 'postgres'
    : `sqlite ${store.url.replace(/^(sqlite|file):(\/\/)?/i, '')}`;
}

/** The line a command prints before it works on the store: which data folder and which database. */
export function dataFolderLine(config: TwinlineConfig, env = process.env): string {
  return `data: ${config.dataDir} (store: ${describeStore(configuredStore(config, env))})`;
}

/** Opens the config's store (audit, tasks, reviews) after saying on stderr which one it is. */
export async function openCommandStore(
  config: TwinlineConfig,
): Promise<import('../../store/index.js').Store> {
  const { openStore } = await import('../../store/index.js');
  process.stderr.write(`twinline: ${dataFolderLine(config)}\n`);
  return openStore(configuredStore(config));
}

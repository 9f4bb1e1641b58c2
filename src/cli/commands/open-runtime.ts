import { createRuntime, type Runtime } from '../../runtime/index.js';
import { loadCommandConfig } from './cli-config.js';

/** Options every runtime-backed command accepts. */
export interface ConfigOption {
  readonly config?: string;
  readonly dataDir?: string;
}

/** Loads the command's config (`loadCommandConfig`) and assembles a runtime for one command. */
export async function openRuntime(opts: ConfigOption, withStore: boolean): Promise<Runtime> {
  return createRuntime(loadCommandConfig(opts), { store: withStore });
}

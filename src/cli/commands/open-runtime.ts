import { loadConfig } from '../../config/index.js';
import { createRuntime, type Runtime } from '../../runtime/index.js';

/** Options every runtime-backed command accepts. */
export interface ConfigOption {
  readonly config?: string;
}

/** Loads `--config` (default: the office domain) and assembles a runtime for one command. */
export async function openRuntime(opts: ConfigOption, withStore: boolean): Promise<Runtime> {
  return createRuntime(loadConfig(opts.config), { store: withStore });
}

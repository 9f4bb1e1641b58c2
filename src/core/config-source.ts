import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where the config comes from: a path, or the built-in sample domain. */
export interface ConfigSource {
  /** Absolute path, or undefined for the built-in sample domain. */
  readonly file: string | undefined;
  /** How it was chosen, for the start-up line. */
  readonly via: '--config' | 'TWINLINE_CONFIG' | './twinline.config.yaml' | 'built-in sample';
}

/**
 * The one rule every door follows to pick its config: `--config`, else `TWINLINE_CONFIG`, else
 * `twinline.config.yaml` in the working directory, else the built-in office sample.
 */
export function configSource(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
  cwd: string = process.cwd(),
): ConfigSource {
  if (flag) return { file: resolve(cwd, flag), via: '--config' };
  const fromEnv = env.TWINLINE_CONFIG;
  if (fromEnv) return { file: resolve(cwd, fromEnv), via: 'TWINLINE_CONFIG' };
  const local = join(cwd, 'twinline.config.yaml');
  if (existsSync(local)) return { file: local, via: './twinline.config.yaml' };
  return { file: undefined, via: 'built-in sample' };
}

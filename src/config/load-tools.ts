import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, importExternal } from '../core/index.js';
import type { ToolSpec } from '../tools/index.js';
import { DATA_FOLDER } from './data-dir.js';
import type { TwinlineConfig } from './load-config.js';
import { compiledToolsModule, linkedToolsModule, prebuiltToolsModule } from './prebuilt-tools.js';

/** What a tools module's `createTools(options, context)` is told about where it runs. */
export interface ToolsContext {
  /** The folder of the config file: relative paths in `tools.options` mean this folder. */
  readonly configDir: string;
  /** The data folder (`--data-dir`, `TWINLINE_HOME`, default `.twinline` beside the config). */
  readonly dataDir: string;
}

interface ToolsModule {
  tools?: unknown;
  createTools?: (options: Readonly<Record<string, unknown>>, context: ToolsContext) => unknown;
}

/**
 * Imports the config's tools module and returns its tool specs (`tools` array or `createTools`).
 * A TypeScript module (like the office domain) is compiled once and cached when Node cannot load it.
 */
export async function loadTools(
  config: Pick<TwinlineConfig, 'tools' | 'file'> & { readonly dataDir?: string },
): Promise<ToolSpec[]> {
  const mod = await importModule(config.tools.module, config.file);
  const context: ToolsContext = {
    configDir: dirname(config.file),
    dataDir: config.dataDir ?? join(dirname(config.file), DATA_FOLDER),
  };
  const list =
    typeof mod.createTools === 'function' ? await mod.createTools(config.tools.options, context) : mod.tools;
  if (!Array.isArray(list)) {
    throw new ConfigError(
      'config.tools-module',
      'the tools module must export `tools: ToolSpec[]` or `createTools()` returning one',
      { where: config.tools.module },
    );
  }
  return list as ToolSpec[];
}

async function importModule(path: string, configFile: string): Promise<ToolsModule> {
  const linked = linkedToolsModule(path);
  if (linked) return (await linked) as ToolsModule;
  // built with the CLI (`npm run build`): no compiler on the way to the first turn
  const url = prebuiltToolsModule(path) ?? pathToFileURL(path).href;
  try {
    return await importExternal<ToolsModule>(url);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'ERR_UNKNOWN_FILE_EXTENSION' || !/\.[mc]?tsx?$/.test(path)) {
      throw new ConfigError('config.tools-module', `cannot load tools module: ${(err as Error).message}`, {
        where: `${configFile} (tools: ${path})`,
        cause: err,
      });
    }
  }
  // shipped compiled (the sample domain in an installed package): no compiler needed
  const compiled = compiledToolsModule(path);
  if (compiled) return importExternal<ToolsModule>(compiled);
  try {
    const { importTypeScriptModule } = await import('./typescript-module.js');
    return (await importTypeScriptModule(path)).module as ToolsModule;
  } catch (err) {
    const missing = /Cannot find (package|module) '(esbuild|tsx)/.test((err as Error).message);
    throw new ConfigError(
      'config.tools-module',
      missing
        ? 'cannot load a TypeScript tools module: Node runs only JavaScript, and neither esbuild nor tsx is installed to compile it; point tools.module at JavaScript (.js/.mjs) or install one of them (npm install --save-dev esbuild)'
        : `cannot load TypeScript tools module: ${(err as Error).message}`,
      {
        where: `${configFile} (tools: ${path})`,
        cause: err,
      },
    );
  }
}

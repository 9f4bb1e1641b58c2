import { pathToFileURL } from 'node:url';
import { ConfigError, importExternal } from '../core/index.js';
import type { ToolSpec } from '../tools/index.js';
import type { TwinlineConfig } from './load-config.js';
import { linkedToolsModule, prebuiltToolsModule } from './prebuilt-tools.js';

interface ToolsModule {
  tools?: unknown;
  createTools?: (options: Readonly<Record<string, unknown>>) => unknown;
}

/**
 * Imports the config's tools module and returns its tool specs (`tools` array or `createTools`).
 * A TypeScript module (like the office domain) is compiled once and cached when Node cannot load it.
 */
export async function loadTools(config: Pick<TwinlineConfig, 'tools' | 'file'>): Promise<ToolSpec[]> {
  const mod = await importModule(config.tools.module, config.file);
  const list =
    typeof mod.createTools === 'function' ? await mod.createTools(config.tools.options) : mod.tools;
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
  try {
    const { importTypeScriptModule } = await import('./typescript-module.js');
    return (await importTypeScriptModule(path)).module as ToolsModule;
  } catch (err) {
    throw new ConfigError(
      'config.tools-module',
      `cannot load TypeScript tools module: ${(err as Error).message}`,
      {
        where: `${configFile} (tools: ${path})`,
        cause: err,
      },
    );
  }
}

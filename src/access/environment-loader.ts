import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { AgentDefinition } from './definition.js';
import type { AgentDefinitionError } from './definition-error.js';
import { loadAgentDefinitions } from './definition-loader.js';
import type { PathRoots } from './path-pattern.js';
import { type CompiledRuleSet, compileRuleSet } from './rule-set.js';
import type { SettingsLayer } from './settings.js';
import { type EffectiveAccessSettings, mergeAccessSettings } from './settings.js';
import { loadSettingsLayers, type SettingsPaths, settingsPaths } from './settings-loader.js';
import { resolveFolderTrust, type TrustDecision } from './trusted-folders.js';
import { loadTrustedFolders, trustedFoldersPath } from './trusted-folders-loader.js';

export interface AccessEnvironmentOptions {
  /** Project root and working directory. */
  readonly cwd: string;
  readonly homeDir?: string;
  /** Managed (organisation) settings file; overrides the others. */
  readonly managedSettingsPath?: string;
  /** Defaults to `~/.twinline/trustedFolders.json`. */
  readonly trustedFoldersPath?: string;
  readonly programmaticAgents?: readonly AgentDefinition[];
}

export interface AccessEnvironment {
  readonly roots: PathRoots;
  readonly trust: TrustDecision;
  readonly trusted: boolean;
  readonly settings: EffectiveAccessSettings;
  /** The settings files read, by level (the managed level's rules bound what a host may add). */
  readonly layers: readonly SettingsLayer[];
  /** Where each level's file is (written by the engine on a host's "always allow"). */
  readonly paths: SettingsPaths;
  readonly rules: CompiledRuleSet;
  readonly definitions: readonly AgentDefinition[];
  readonly definitionErrors: readonly AgentDefinitionError[];
}

/**
 * Reads everything the access layer needs for a folder: trust, settings (project levels only when
 * trusted), agent definitions; compiles the rules once. The only composite I/O entry point.
 */
export function loadAccessEnvironment(options: AccessEnvironmentOptions): AccessEnvironment {
  const home = resolve(options.homeDir ?? homedir());
  const cwd = resolve(options.cwd);
  const roots: PathRoots = { projectRoot: cwd, cwd, home };
  const trust = resolveFolderTrust(
    cwd,
    loadTrustedFolders(options.trustedFoldersPath ?? trustedFoldersPath(home)),
  );
  const trusted = trust.trust === 'trusted';
  const paths = settingsPaths(cwd, home, options.managedSettingsPath);
  const layers = loadSettingsLayers(paths);
  const settings = mergeAccessSettings(layers, trusted);
  const rules = compileRuleSet(settings.ruleSources, roots);
  const loaded = loadAgentDefinitions({
    cwd,
    homeDir: home,
    ...(options.programmaticAgents ? { programmatic: options.programmaticAgents } : {}),
  });
  return {
    roots,
    trust,
    trusted,
    settings,
    layers,
    paths,
    rules,
    definitions: loaded.definitions,
    definitionErrors: loaded.errors,
  };
}

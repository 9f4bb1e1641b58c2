import { readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { type AgentDefinition, parseAgentDefinition } from './definition.js';
import { AgentDefinitionError } from './definition-error.js';

export interface LoadAgentDefinitionsOptions {
  /** Project root; its `.twinline/agents/` is read. */
  readonly cwd: string;
  /** Home directory (injectable for tests); its `.twinline/agents/` is read. Default `os.homedir()`. */
  readonly homeDir?: string;
  /** Definitions passed in code; they win over files of the same name. */
  readonly programmatic?: readonly AgentDefinition[];
}

export interface LoadedAgentDefinitions {
  /** Effective definitions, one per name (case-insensitive), programmatic > project > user. */
  readonly definitions: readonly AgentDefinition[];
  /** Files that failed to load; each names its path, line and field. */
  readonly errors: readonly AgentDefinitionError[];
  /** Definitions hidden by a higher-precedence one with the same name. */
  readonly shadowed: readonly AgentDefinition[];
}

/**
 * Reads agent definitions from the project and user directories. One bad file never stops the
 * others: it is reported in `errors` and left out. This and the settings/trust loaders are the
 * access module's only I/O.
 */
export function loadAgentDefinitions(options: LoadAgentDefinitionsOptions): LoadedAgentDefinitions {
  const home = resolve(options.homeDir ?? homedir());
  const root = resolve(options.cwd);
  const errors: AgentDefinitionError[] = [];
  const levels: AgentDefinition[][] = [[...(options.programmatic ?? [])]];
  // A project rooted at the home directory would read the user's agents twice, as project ones.
  levels.push(root === home ? [] : readLevel(join(root, '.twinline', 'agents'), 'project', errors));
  const errorsByLevel = { project: errors.length, user: 0 };
  levels.push(readLevel(join(home, '.twinline', 'agents'), 'user', errors));
  errorsByLevel.user = errors.length;
  const byName = new Map<string, AgentDefinition>();
  const shadowed: AgentDefinition[] = [];
  // A broken definition still claims its name: falling through to a lower-precedence file of the
  // same name would run an agent its author did not write.
  const refused = new Set<string>();
  const levelErrors = [0, errorsByLevel.project, errorsByLevel.user];
  for (const [i, level] of levels.entries()) {
    for (const def of level) {
      const key = def.name.toLowerCase();
      if (byName.has(key) || refused.has(key)) shadowed.push(def);
      else byName.set(key, def);
    }
    for (const e of errors.slice(0, levelErrors[i] ?? 0))
      if (e.agentName) refused.add(e.agentName.toLowerCase());
  }
  return { definitions: [...byName.values()], errors, shadowed };
}

function readLevel(
  dir: string,
  source: 'project' | 'user',
  errors: AgentDefinitionError[],
): AgentDefinition[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).filter((f) => f.endsWith('.md'));
  } catch {
    return [];
  }
  const out: AgentDefinition[] = [];
  const seen = new Map<string, string>();
  for (const file of entries.sort()) {
    const path = join(dir, file);
    try {
      const def = parseAgentDefinition(readFileSync(path, 'utf8'), path, source);
      const earlier = seen.get(def.name.toLowerCase());
      if (earlier) {
        throw new AgentDefinitionError(path, 2, 'name', `"${def.name}" is already defined in ${earlier}`);
      }
      seen.set(def.name.toLowerCase(), path);
      out.push(def);
    } catch (err) {
      if (err instanceof AgentDefinitionError) errors.push(err);
      else
        errors.push(new AgentDefinitionError(path, 1, undefined, `cannot read: ${(err as Error).message}`));
    }
  }
  return out;
}

import { decide, type StageDecision } from '../core/index.js';
import type { ToolKind } from '../tools/index.js';
import {
  type EngineStatePath,
  engineStatePaths,
  matchEngineState,
  matchSecretEngineState,
} from '../tools/index.js';
import type { CompiledRule } from './compiled-rule.js';
import { type PathRoots, resolvePath } from './path-pattern.js';

/** Rule id of the built-in refusal to write engine state. */
export const ENGINE_STATE_RULE_ID = 'access.engine-state';

/** The built-in rule a shell line naming engine state meets: ask, in every mode. */
export const ENGINE_STATE_SHELL_RULE: CompiledRule = {
  text: 'built-in: a command naming the engine state (settings, trust, audit database)',
  effect: 'ask',
  tool: 'shell',
  source: 'built-in',
};

const listCache = new WeakMap<PathRoots, readonly EngineStatePath[]>();

/** The engine-state list of a rule set's roots, built once per roots object. */
export function engineStateOf(roots: PathRoots): readonly EngineStatePath[] {
  let list = listCache.get(roots);
  if (!list) {
    list = engineStatePaths({
      projectRoot: roots.projectRoot,
      home: roots.home,
      files: roots.stateFiles ?? [],
      folders: roots.stateFolders ?? [],
    });
    listCache.set(roots, list);
  }
  return list;
}

// Argument names a file-writing tool may take a path in (top level). Every one is checked, so a
// second path key cannot smuggle a target past the one the rules look at.
const PATH_KEY = /(^|_)(path|file|filename|dir|directory|dest|destination|target|to)$|Path$|File$/;

function pathArguments(args: unknown): string[] {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(args as Record<string, unknown>)) {
    if (!PATH_KEY.test(k)) continue;
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) if (typeof x === 'string') out.push(x);
  }
  return out;
}

/**
 * The built-in deny for file tools, checked before permission rules and modes, so no allow rule,
 * host answer or mode (yolo and bypassPermissions included) lifts it. A file-writing tool (kind
 * `edit`: `write_file`, `edit`, any tool whose manifest says it edits files) naming engine state
 * in any path argument is refused; a file-reading tool (kind `read`: `read_file`, `grep`, `glob`,
 * `list_directory`) naming its secret part is refused as well. Undefined when the call names
 * neither. Pure.
 */
export function engineStateDenial(
  tool: string,
  kind: ToolKind,
  args: unknown,
  roots: PathRoots,
  stage: string,
): StageDecision | undefined {
  if (kind !== 'read' && kind !== 'edit') return undefined;
  // A read meets only the secret part (the audit database, the watermark key, the data folder with
  // other tenants' records): settings and agent definitions stay readable, never writable.
  const reading = kind === 'read';
  const list = engineStateOf(roots);
  for (const raw of pathArguments(args)) {
    if (raw.includes('\0')) continue;
    const abs = resolvePath(raw, roots);
    const hit = reading ? matchSecretEngineState(abs, list) : matchEngineState(abs, list);
    if (!hit) continue;
    const refusal = reading
      ? `${tool} may not read ${raw}: it is the engine's own data (${hit.what}). No mode or permission rule allows reading it.`
      : `${tool} may not write ${raw}: it is the engine's own state (${hit.what}). No mode or permission rule allows writing it.`;
    return decide('deny', stage, ENGINE_STATE_RULE_ID, refusal, {
      details: { path: abs, protected: hit.path },
    });
  }
  return undefined;
}

const NAMED_STATE = /\.twinline|\.claude[\\/]+settings|\.qwen[\\/]+settings|trustedfolders\.json/i;
const WORD_SPLIT = /[\s'"`=<>|;&()]+/;

/**
 * True when a shell line names engine state: a word that resolves into it (relative to cwd,
 * absolute, `~`), or the name of a state folder anywhere in the line (quotes, `$(…)` and globbing
 * aside). The classifier then asks in every mode; the sandbox keeps the paths read-only either way.
 */
export function shellNamesEngineState(command: string, roots: PathRoots): boolean {
  if (NAMED_STATE.test(command)) return true;
  const list = engineStateOf(roots);
  for (const word of command.split(WORD_SPLIT)) {
    if (!word || !(word.includes('/') || word.startsWith('.') || word.startsWith('~'))) continue;
    if (matchEngineState(resolvePath(word, roots), list)) return true;
  }
  return false;
}

import type { PermissionSubject } from './spec.js';

// The subjects the built-in manifests name (docs/access.md, "Permission rules"). They read raw
// arguments (they run before the schema), so every field is checked for its type.

function fields(args: unknown): Record<string, unknown> {
  return (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
}

/** A file tool's path: the first of `file_path`, `path`, `notebook_path`, `directory`, else `.`. */
export function pathSubject(args: unknown): PermissionSubject {
  const a = fields(args);
  const raw = [a.file_path, a.path, a.notebook_path, a.directory].find((v) => typeof v === 'string');
  return { kind: 'path', value: (raw as string | undefined) ?? '.' };
}

/** A shell call's command line (empty when there is none). */
export function commandSubject(args: unknown): PermissionSubject {
  const command = fields(args).command;
  return { kind: 'command', value: typeof command === 'string' ? command : '' };
}

/** The host a fetch reaches, lower-cased (empty when the URL does not parse). */
export function hostSubject(args: unknown): PermissionSubject {
  const url = fields(args).url;
  if (typeof url !== 'string') return { kind: 'host', value: '' };
  try {
    return { kind: 'host', value: new URL(url).hostname.toLowerCase() };
  } catch {
    return { kind: 'host', value: '' };
  }
}

/**
 * The type of agent a spawn starts (`subagent_type`, `agent` or `type`); undefined when the call
 * names none, so `agent(key:value)` rules match its arguments. A type that is not a string
 * matches no type rule (the schema refuses the call).
 */
export function agentTypeSubject(args: unknown): PermissionSubject | undefined {
  const a = fields(args);
  const type = a.subagent_type ?? a.agent ?? a.type;
  if (type === undefined || type === null) return undefined;
  return { kind: 'agentType', value: typeof type === 'string' ? type : '' };
}

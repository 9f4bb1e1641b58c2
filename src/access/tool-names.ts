import type { ToolKind } from '../tools/index.js';

/**
 * Twinline's built-in tool names and the kind each performs. Names outside this table are MCP
 * tools (`mcp__server__tool`) or domain tools registered by an application.
 */
export const BUILTIN_TOOL_KINDS: Readonly<Record<string, ToolKind>> = {
  read_file: 'read',
  list_directory: 'read',
  glob: 'read',
  grep: 'read',
  write_file: 'edit',
  edit: 'edit',
  shell: 'shell',
  web_fetch: 'fetch',
  web_search: 'fetch',
  agent: 'agent',
  ask_user: 'control',
  enter_plan_mode: 'control',
  exit_plan_mode: 'control',
  todo_write: 'control',
  task_create: 'control',
  task_get: 'control',
  task_list: 'control',
  task_update: 'control',
  task_output: 'control',
  task_stop: 'control',
  send_message: 'control',
  tool_search: 'control',
  tool_call: 'control',
  exec: 'control',
};

/** Every built-in tool name, in a stable order. */
export const BUILTIN_TOOL_NAMES: readonly string[] = Object.keys(BUILTIN_TOOL_KINDS);

/**
 * Names other runtimes use for the same tools (Claude Code display names, Qwen Code wire and
 * legacy names). Accepted in agent definitions and permission rules so files written for either
 * upstream keep their meaning here. Keys are matched exactly first, then case-insensitively.
 */
export const TOOL_NAME_ALIASES: Readonly<Record<string, string>> = {
  // shell
  Bash: 'shell',
  Shell: 'shell',
  ShellTool: 'shell',
  PowerShell: 'shell',
  run_shell_command: 'shell',
  // reads
  Read: 'read_file',
  ReadFile: 'read_file',
  ReadFileTool: 'read_file',
  ReadFolder: 'list_directory',
  LS: 'list_directory',
  ls: 'list_directory',
  Grep: 'grep',
  SearchFiles: 'grep',
  grep_search: 'grep',
  search_file_content: 'grep',
  Glob: 'glob',
  FindFiles: 'glob',
  // edits
  Edit: 'edit',
  replace: 'edit',
  Write: 'write_file',
  WriteFile: 'write_file',
  // web
  WebFetch: 'web_fetch',
  WebSearch: 'web_search',
  google_web_search: 'web_search',
  // agents and control
  Agent: 'agent',
  Task: 'agent',
  task: 'agent',
  AskUserQuestion: 'ask_user',
  ask_user_question: 'ask_user',
  EnterPlanMode: 'enter_plan_mode',
  ExitPlanMode: 'exit_plan_mode',
  TodoWrite: 'todo_write',
  TaskCreate: 'task_create',
  TaskGet: 'task_get',
  TaskList: 'task_list',
  TaskUpdate: 'task_update',
  TaskOutput: 'task_output',
  TaskStop: 'task_stop',
  KillShell: 'task_stop',
  SendMessage: 'send_message',
  ToolSearch: 'tool_search',
  ToolCall: 'tool_call',
};

const lowerAliases = new Map<string, string>(
  Object.entries(TOOL_NAME_ALIASES).map(([k, v]) => [k.toLowerCase(), v]),
);

/**
 * The Twinline name for a tool name written in a rule or definition. Built-in names and aliases
 * resolve; MCP and domain names are returned unchanged.
 */
export function canonicalToolName(name: string): string {
  if (Object.hasOwn(BUILTIN_TOOL_KINDS, name)) return name;
  const exact = TOOL_NAME_ALIASES[name];
  if (exact !== undefined && Object.hasOwn(TOOL_NAME_ALIASES, name)) return exact;
  if (name.startsWith('mcp__')) return name;
  return lowerAliases.get(name.toLowerCase()) ?? name;
}

/** True for `mcp__server__tool` names. */
export function isMcpToolName(name: string): boolean {
  return name.startsWith('mcp__');
}

/** The kind of a tool by name when no manifest says otherwise: built-in table, MCP, else domain. */
export function toolKindOf(name: string, declared?: ToolKind): ToolKind {
  if (declared !== undefined) return declared;
  const builtin = BUILTIN_TOOL_KINDS[name];
  if (builtin !== undefined && Object.hasOwn(BUILTIN_TOOL_KINDS, name)) return builtin;
  return isMcpToolName(name) ? 'mcp' : 'domain';
}

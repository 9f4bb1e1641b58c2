import { describe, expect, it } from 'vitest';
import { createControlTools } from '../../src/agent/index.js';
import { validateArgs } from '../../src/gateway/index.js';
import { createWorkspaceTools } from '../../src/tools/workspace/index.js';

// Permission rules judge a call by the subject its manifest names (a path, a command, a host, an
// agent type), read from the raw arguments before the schema runs. A subject reader knows several
// spellings (`file_path` beside `path`, `subagent_type` beside `agent`); were the schema to strip
// a spelling the tool does not use, a call could show the rules one target and run another. So
// every built-in tool with a subject refuses arguments it does not know.
const tools = [
  ...createWorkspaceTools({ root: process.cwd() }),
  ...createControlTools({ allowedRoles: ['user'] }),
];

const valid: Record<string, Record<string, unknown>> = {
  read_file: { path: 'secrets/key.txt' },
  write_file: { path: 'secrets/key.txt', content: 'x' },
  edit: { path: 'secrets/key.txt', oldString: 'a', newString: 'b' },
  list_directory: { path: 'secrets' },
  glob: { pattern: '**/*', path: 'secrets' },
  grep: { pattern: 'x', path: 'secrets' },
  shell: { command: 'cat secrets/key.txt' },
  web_fetch: { url: 'https://evil.example/' },
  agent: { agent: 'forbidden', prompt: 'go' },
};

// A second spelling of the subject, naming something the rules would allow.
const decoys: Record<string, Record<string, unknown>> = {
  read_file: { file_path: 'README.md' },
  write_file: { file_path: 'notes.txt' },
  edit: { notebook_path: 'notes.txt' },
  list_directory: { directory: '.' },
  glob: { file_path: 'README.md' },
  grep: { directory: '.' },
  shell: { cmd: 'ls' },
  web_fetch: { href: 'https://allowed.example/' },
  agent: { subagent_type: 'allowed' },
};

describe('a second spelling of a permission subject is refused, never stripped', () => {
  const withSubject = tools.filter((t) => t.permissionSubject && valid[t.name]);

  it('covers every built-in tool that names a subject', () => {
    expect(withSubject.map((t) => t.name).sort()).toEqual(Object.keys(valid).sort());
  });

  it.each(Object.keys(valid))('%s', (name) => {
    const tool = withSubject.find((t) => t.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    const args = valid[name] as Record<string, unknown>;
    expect(validateArgs(tool.inputSchema, name, args).verdict, 'the valid call').toBe('allow');
    const d = validateArgs(tool.inputSchema, name, { ...args, ...decoys[name] });
    expect(d.verdict).toBe('deny');
    expect(d.reason).toContain(Object.keys(decoys[name] as object)[0]);
  });
});

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are bash, whose variables are written ${…}
import type { Command } from 'commander';

/** A command as completion needs it: its words and its options. */
export interface CompletionNode {
  readonly name: string;
  readonly options: readonly string[];
  readonly subcommands: readonly CompletionNode[];
}

/** The command tree of `program`, as registered (so completion never drifts from the commands). */
export function commandTree(program: Command): CompletionNode {
  const walk = (c: Command): CompletionNode => ({
    name: c.name(),
    options: c.options.flatMap((o) => [o.long, o.short].filter((x): x is string => !!x)),
    subcommands: c.commands.map(walk),
  });
  return walk(program);
}

/** Values some options take from a fixed set. */
const OPTION_VALUES: Readonly<Record<string, readonly string[]>> = {
  '--profile': [
    'serve.deep',
    'serve.quick',
    'serve.readonly',
    'agent-session',
    'stream-json',
    'host-session',
    'library',
  ],
  '--line': ['deep', 'quick'],
  '--channel': ['user_input', 'tool_output'],
  '--mode': ['default', 'plan', 'acceptEdits', 'auto-edit', 'auto', 'yolo', 'bypassPermissions'],
};

/** Options whose value is a file or folder. */
const PATH_OPTIONS = ['--config', '--data-dir', '--cwd', '--home', '--html', '--baseline', '--store'];

const shellWords = (words: readonly string[]) => words.map((w) => w.replace(/[^\w.:-]/g, '')).join(' ');

/** The completion script for `shell` over `tree`. Pure. */
export function completionScript(shell: 'bash' | 'zsh', tree: CompletionNode): string {
  // one case per command path: "run", "reviews approve", … → the words that may follow
  const cases: string[] = [];
  const visit = (node: CompletionNode, path: string[]) => {
    const words = [...node.subcommands.map((s) => s.name), ...node.options];
    cases.push(`    "${path.join(' ')}") words="${shellWords(words)}" ;;`);
    for (const s of node.subcommands) visit(s, [...path, s.name]);
  };
  visit(tree, []);
  const values = Object.entries(OPTION_VALUES)
    .map(([opt, v]) => `    ${opt}) COMPREPLY=($(compgen -W "${shellWords(v)}" -- "$cur")); return ;;`)
    .join('\n');
  const bash = [
    '# twinline completion for bash: eval "$(twinline completion bash)"',
    '_twinline() {',
    '  local cur prev path words w i',
    '  cur="${COMP_WORDS[COMP_CWORD]}"',
    '  prev="${COMP_WORDS[COMP_CWORD-1]}"',
    '  case "$prev" in',
    values,
    `    ${PATH_OPTIONS.join('|')}) COMPREPLY=($(compgen -f -- "$cur")); return ;;`,
    '  esac',
    '  path=""',
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    w="${COMP_WORDS[i]}"',
    '    [[ "$w" == -* ]] && continue',
    '    _twinline_words "${path:+$path }$w"',
    '    [[ -n "$words" ]] && path="${path:+$path }$w"',
    '  done',
    '  _twinline_words "$path"',
    '  COMPREPLY=($(compgen -W "$words" -- "$cur"))',
    '}',
    '_twinline_words() {',
    '  words=""',
    '  case "$1" in',
    ...cases,
    '  esac',
    '}',
    'complete -o default -F _twinline twinline',
    '',
  ].join('\n');
  if (shell === 'bash') return bash;
  // zsh runs the same function through its bash-completion layer
  return [
    '# twinline completion for zsh: eval "$(twinline completion zsh)"',
    'autoload -U +X compinit && compinit',
    'autoload -U +X bashcompinit && bashcompinit',
    bash,
  ].join('\n');
}

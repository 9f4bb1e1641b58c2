import { hasExpansion, readToolHazard } from './shell-hazards.js';
import type { ShellSegment, SplitShellCommand } from './shell-split.js';

/**
 * Rule-based shell risk classes used by approval modes — never a model. A command is read-only
 * only when every one of its simple commands is on the read-only list with no writing option and
 * no output redirection, and nothing is substituted.
 */
const READ_ONLY_COMMANDS = new Set([
  'ls',
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'wc',
  'pwd',
  'echo',
  'printf',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'which',
  'whoami',
  'id',
  'date',
  'uname',
  'stat',
  'file',
  'du',
  'df',
  'tree',
  'sort',
  'uniq',
  'cut',
  'diff',
  'true',
  'false',
  'printenv',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'type',
  'hostname',
  'jq',
  'nl',
  'od',
  'xxd',
  'strings',
  'tr',
  'column',
  'cmp',
  'comm',
  'sha256sum',
  'md5sum',
]);
const READ_ONLY_GIT = new Set([
  'status',
  'diff',
  'log',
  'show',
  'rev-parse',
  'ls-files',
  'blame',
  'describe',
  'shortlog',
  'grep',
]);
/** Commands that read the files named in their arguments, for Read rules on shell lines. */
export const FILE_READING_COMMANDS = new Set([
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'wc',
  'sort',
  'uniq',
  'cut',
  'diff',
  'nl',
  'od',
  'xxd',
  'strings',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'base64',
  'cmp',
  'comm',
  'sha256sum',
  'md5sum',
  'jq',
  'cp',
  // listing a directory reads it
  'ls',
  'tree',
  'find',
  'stat',
  'file',
  'du',
  'realpath',
  'readlink',
]);

export function segmentIsReadOnly(seg: ShellSegment): boolean {
  if (seg.writes.length > 0 || seg.nested || seg.riskyEnv) return false;
  // Write/exec flags of read tools, and words whose value is not known until the shell expands them.
  if (seg.words.some(hasExpansion) || readToolHazard(seg.words) !== undefined) return false;
  const cmd = seg.words[0];
  if (cmd === undefined) return true;
  if (cmd !== 'git' && cmd !== 'find' && cmd !== 'sed' && cmd !== 'sort') return READ_ONLY_COMMANDS.has(cmd);
  const args = seg.words.slice(1);
  if (cmd === 'git') {
    const sub = args.find((a) => !a.startsWith('-'));
    if (sub === 'branch') return args.every((a) => !/^-(d|D|m|M|c|C|-delete|-move|-copy)$/.test(a));
    return sub !== undefined && READ_ONLY_GIT.has(sub) && !args.includes('--output');
  }
  if (cmd === 'find') {
    return !args.some((a) => /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/.test(a));
  }
  if (cmd === 'sed') return !args.some((a) => /^(-i|--in-place)/.test(a) || /^-[a-zA-Z]*i/.test(a));
  if (cmd === 'sort') return !args.some((a) => a === '-o' || a.startsWith('--output'));
  return READ_ONLY_COMMANDS.has(cmd);
}

/** True when the whole line only reads. */
export function isReadOnlyShell(split: SplitShellCommand): boolean {
  if (split.opaque || split.hasSubstitution) return false;
  return split.segments.every(segmentIsReadOnly);
}

/** True for commands that destroy data or the machine's state; `auto` mode refuses these. */
export function isDestructiveShell(split: SplitShellCommand): boolean {
  for (const seg of split.segments) if (segmentIsDestructive(seg)) return true;
  return false;
}

/** Commands that are destructive whatever their arguments (plus `mkfs.*`, tested apart). */
const DESTRUCTIVE_COMMANDS = new Set([
  'mkfs',
  'dd',
  'shred',
  'wipefs',
  'shutdown',
  'reboot',
  'halt',
  'poweroff',
  'fdisk',
  'parted',
]);

function segmentIsDestructive(seg: ShellSegment): boolean {
  // Only the commands below look at their arguments: split them out for those alone.
  const core = seg.core;
  const sp = core.indexOf(' ');
  const cmd = sp < 0 ? core : core.slice(0, sp);
  if (cmd === 'rm' || cmd === 'chmod' || cmd === 'chown' || cmd === 'git') {
    const args = core.split(' ').slice(1);
    if (cmd === 'rm')
      return args.some((a) => /^-[a-zA-Z]*[rRf]/.test(a) || a === '--recursive' || a === '--force');
    if (cmd !== 'git' && args.some((a) => a === '-R' || a === '--recursive')) return true;
    if (cmd === 'git') {
      const sub = args.find((a) => !a.startsWith('-'));
      if (sub === 'push' && args.some((a) => a === '-f' || a === '--force' || a.startsWith('--force-')))
        return true;
      if (sub === 'reset' && args.includes('--hard')) return true;
      if (sub === 'clean' && args.some((a) => /^-[a-zA-Z]*f/.test(a))) return true;
    }
  } else if (DESTRUCTIVE_COMMANDS.has(cmd) || (cmd.startsWith('mkfs.') && /^mkfs\..*$/.test(cmd)))
    return true;
  for (const w of seg.writes) if (w.startsWith('/dev/sd') || w.startsWith('/dev/nvme')) return true;
  // A fork bomb's `:()` opener; the substring test keeps the regex off ordinary lines.
  return seg.text.includes(':()') && /:\(\)\s*\{/.test(seg.text);
}

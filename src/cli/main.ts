import { isStreamJsonInvocation } from '../protocol/argv.js';

/** Entry of `bin/twinline.js`: every mode and command. Returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  // Hosts (Claude Agent SDK, Qwen Code SDK, twinline/sdk) spawn this per session: take the
  // stream-json fast path before the command-line parser is built.
  if (isStreamJsonInvocation(argv)) {
    const { runStdioMode } = await import('../protocol/stdio-mode.js');
    return runStdioMode(argv);
  }
  // Editors spawn `twinline acp` per workspace: straight to the ACP agent, like stream-json.
  if (argv[2] === 'acp' && argv.length === 3) {
    const { runAcpMode } = await import('../acp/index.js');
    return runAcpMode();
  }
  // The command-line parser is loaded only off the stream-json path.
  const [{ runCommandLine }, { COMMANDS }] = await Promise.all([
    import('./command-line.js'),
    import('./commands/index.js'),
  ]);
  return runCommandLine(argv, COMMANDS);
}

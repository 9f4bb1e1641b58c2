import { isStreamJsonInvocation } from '../protocol/argv.js';

/**
 * Entry of `bin/twinline.js`. Returns the exit code. Errors Twinline raised on purpose are
 * printed as one clear line naming the bad input; anything else is a bug and keeps its stack.
 */
export async function main(argv: readonly string[]): Promise<number> {
  // Hosts (Claude Agent SDK, Qwen Code SDK, twinline/sdk) spawn this per session: take the
  // stream-json fast path before the command-line parser is built.
  if (isStreamJsonInvocation(argv)) {
    const { runStdioMode } = await import('../protocol/stdio-mode.js');
    return runStdioMode(argv);
  }
  // The command-line parser is loaded only off the stream-json path.
  const [{ Command, CommanderError }, { TwinlineError }, { COMMANDS }, { VERSION }] = await Promise.all([
    import('commander'),
    import('../core/index.js'),
    import('./commands/index.js'),
    import('./version.js'),
  ]);
  const program = new Command();
  program
    .name('twinline')
    .description(
      'Twinline: every tool call an agent proposes passes one gateway the model cannot talk its way around.',
    )
    .version(VERSION, '-V, --version')
    .showHelpAfterError()
    .allowExcessArguments(false)
    .exitOverride();
  for (const mod of COMMANDS) mod.register(program);
  try {
    await program.parseAsync(argv as string[]);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // help and version exit "successfully" through the override
      return err.exitCode;
    }
    if (err instanceof TwinlineError) {
      process.stderr.write(`twinline: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

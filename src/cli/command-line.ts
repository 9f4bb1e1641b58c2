import { Command, CommanderError } from 'commander';
import { packageVersion, TwinlineError } from '../core/index.js';
import type { CommandModule } from './commands/index.js';
import { EXIT_USAGE } from './exit-codes.js';

/**
 * Parses `argv` against `commands` and runs the chosen one. Returns the exit code. Errors Twinline
 * raised on purpose are printed as one clear line naming the bad input; anything else is a bug
 * and keeps its stack.
 */
export async function runCommandLine(
  argv: readonly string[],
  commands: readonly CommandModule[],
): Promise<number> {
  const program = new Command();
  program
    .name('twinline')
    .description(
      'Twinline: every tool call an agent proposes passes one gateway the model cannot talk its way around.',
    )
    .version(packageVersion(), '-V, --version')
    .showHelpAfterError()
    .allowExcessArguments(false)
    .exitOverride();
  for (const mod of commands) mod.register(program);
  try {
    await program.parseAsync(argv as string[]);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // help and version exit "successfully" through the override; every other parse error is
      // a usage error, exit 2 like POSIX tools (docs/cli.md, "Exit codes")
      return err.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    if (err instanceof TwinlineError) {
      process.stderr.write(`twinline: ${err.message}\n`);
      return EXIT_USAGE;
    }
    throw err;
  }
}

import type { Command } from 'commander';
import type { CommandModule } from './command-module.js';

/** `twinline doctor`: what this machine gives the engine, starting with the process sandbox. */
export const doctorCommand: CommandModule = {
  register(program: Command) {
    program
      .command('doctor')
      .description(
        'Check this machine: whether the process sandbox (bubblewrap) can confine shell commands, and what happens if not',
      )
      .option('--json', 'print JSON')
      .action(async (opts) => {
        const { runDoctor } = await import('./doctor-run.js');
        process.exitCode = runDoctor(opts);
      });
  },
};

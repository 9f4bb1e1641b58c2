import type { Command } from 'commander';
import type { CommandModule } from './command-module.js';

/** `twinline agents`: loaded agent definitions with their resolved tools and mode, and load errors. */
export const agentsCommand: CommandModule = {
  register(program: Command) {
    program
      .command('agents')
      .description(
        'List agent definitions (.twinline/agents, ~/.twinline/agents) with resolved tools, mode and load errors',
      )
      .option('--json', 'print JSON')
      .option('--cwd <dir>', 'project directory (default: the current directory)')
      .option('--home <dir>', 'home directory holding ~/.twinline (default: the user home)')
      .option('--managed-settings <file>', 'managed settings file that overrides the others')
      .action(async (opts) => {
        const { runAgents } = await import('./agents-run.js');
        process.exitCode = runAgents(opts);
      });
  },
};

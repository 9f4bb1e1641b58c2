import type { Command } from 'commander';
import type { CommandModule } from './command-module.js';
import { CONFIG_HELP } from './option-help.js';

/** `twinline tools`: the registered tool manifests. */
export const toolsCommand: CommandModule = {
  register(program: Command) {
    program
      .command('tools')
      .description('List the registered tools (with --json: full manifests including JSON Schema)')
      .option('--json', 'print the manifests as JSON')
      .option('--config <file>', CONFIG_HELP)
      .action(async (opts) => {
        const { runTools } = await import('./tools-run.js');
        await runTools(opts);
      });
  },
};

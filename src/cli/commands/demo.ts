import type { Command } from 'commander';
import type { CommandModule } from './command-module.js';
import { CONFIG_HELP, DATA_DIR_HELP } from './option-help.js';

/** `twinline demo`: a short scripted walkthrough through the real gateway on the office domain. */
export const demoCommand: CommandModule = {
  register(program: Command) {
    program
      .command('demo')
      .description(
        'Run scripted calls for alice, mallory, carol and gina through the gateway and print each decision',
      )
      .option('--json', 'print the results as JSON')
      .option('--config <file>', CONFIG_HELP)
      .option('--data-dir <dir>', DATA_DIR_HELP)
      .action(async (opts) => {
        const { runDemo } = await import('./demo-run.js');
        await runDemo(opts);
      });
  },
};

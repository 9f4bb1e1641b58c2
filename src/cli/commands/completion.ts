import type { Command } from 'commander';
import type { CommandModule } from './command-module.js';

/** `twinline completion bash|zsh`: a shell completion script, made from the commands' own options. */
export const completionCommand: CommandModule = {
  register(program: Command) {
    program
      .command('completion')
      .description('print a shell completion script: eval "$(twinline completion bash)" (or zsh)')
      .argument('<shell>', 'bash | zsh')
      .action(async (shell: string) => {
        const { TwinlineError } = await import('../../core/index.js');
        if (shell !== 'bash' && shell !== 'zsh') {
          throw new TwinlineError('cli.bad-shell', `expected bash or zsh, got ${JSON.stringify(shell)}`, {
            where: '<shell>',
          });
        }
        const { completionScript, commandTree } = await import('./completion-script.js');
        process.stdout.write(completionScript(shell, commandTree(program)));
      });
  },
};

import type { Command } from 'commander';
import type { CommandModule } from './index.js';

/** `twinline keys hash KEY`: the line to put in auth.yaml for an API key (only the hash is stored). */
export const keysCommand: CommandModule = {
  register(program: Command) {
    const keys = program.command('keys').description('API key helpers');
    keys
      .command('hash')
      .description('print the sha256 hash of an API key, as auth.yaml stores it')
      .argument('<key>', 'the API key (at least 16 characters)')
      .action(async (key: string) => {
        const { TwinlineError } = await import('../../core/index.js');
        if (key.length < 16) {
          throw new TwinlineError('cli.weak-key', 'an API key must be at least 16 characters', {
            where: '<key>',
          });
        }
        const { hashApiKey } = await import('../../server/auth/index.js');
        process.stdout.write(`${hashApiKey(key)}\n`);
      });
  },
};

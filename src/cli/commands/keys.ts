import type { Command } from 'commander';
import type { CommandModule } from './command-module.js';

interface KeysHashOptions {
  readonly tenant?: string;
  readonly user?: string;
  readonly hashOnly?: boolean;
}

/** `twinline keys hash KEY`: the line to put in auth.yaml for an API key (only the hash is stored). */
export const keysCommand: CommandModule = {
  register(program: Command) {
    const keys = program.command('keys').description('API key helpers');
    keys
      .command('hash')
      .description('print the auth.yaml line for an API key (only its sha256 hash is stored)')
      .argument('<key>', 'the API key (at least 16 characters), or - to read it from stdin')
      .option('--tenant <tenant>', 'the tenant the key signs in to')
      .option('--user <user>', 'the user the key signs in as')
      .option('--hash-only', 'print only the hash')
      .action(async (key: string, opts: KeysHashOptions) => {
        const { TwinlineError } = await import('../../core/index.js');
        const secret = key === '-' ? (await readStdin()).trim() : key;
        if (secret.length < 16) {
          throw new TwinlineError('cli.weak-key', 'an API key must be at least 16 characters', {
            where: '<key>',
          });
        }
        const name = /^[a-zA-Z0-9_.-]{1,64}$/;
        for (const [flag, value] of [
          ['--tenant', opts.tenant],
          ['--user', opts.user],
        ] as const) {
          if (value !== undefined && !name.test(value)) {
            throw new TwinlineError('cli.bad-name', 'letters, digits, _ . - only', { where: flag });
          }
        }
        const { hashApiKey } = await import('../../server/auth/index.js');
        const hash = hashApiKey(secret);
        if (opts.hashOnly) {
          process.stdout.write(`${hash}\n`);
          return;
        }
        // the entry as auth.yaml lists it under `apiKeys:`
        process.stdout.write(
          `  - { tenant: ${opts.tenant ?? 'TENANT'}, user: ${opts.user ?? 'USER'}, hash: "${hash}" }\n`,
        );
        if (opts.tenant === undefined || opts.user === undefined) {
          process.stderr.write('twinline: replace TENANT and USER (or pass --tenant and --user)\n');
        }
      });
  },
};

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

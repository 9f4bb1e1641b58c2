import type { Command } from 'commander';
import type { CommandModule } from './command-module.js';
import { CONFIG_HELP, DATA_DIR_HELP } from './option-help.js';

/** `twinline audit`: read the audit trail from the store. */
export const auditCommand: CommandModule = {
  register(program: Command) {
    program
      .command('audit')
      .description('Show audit records, newest first')
      .option('--tenant <tenant>', 'only this tenant')
      .option('--user <user>', 'only this user')
      .option('--tool <tool>', 'only this tool')
      .option('--since <time>', 'only records at or after this ISO-8601 time')
      .option('--limit <n>', 'at most this many records', '50')
      .option('--json', 'print JSON')
      .option('--config <file>', CONFIG_HELP)
      .option('--data-dir <dir>', DATA_DIR_HELP)
      .action(async (opts) => {
        const { runAudit } = await import('./audit-run.js');
        await runAudit(opts);
      });
  },
};

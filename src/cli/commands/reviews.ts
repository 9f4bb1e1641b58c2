import type { Command } from 'commander';
import type { CommandModule } from './command-module.js';
import { CONFIG_HELP, DATA_DIR_HELP } from './option-help.js';

/** `twinline reviews list|approve ID|deny ID`: the human side of the review queue. */
export const reviewsCommand: CommandModule = {
  register(program: Command) {
    const reviews = program.command('reviews').description('List, approve or deny calls waiting for review');
    const common = (c: Command) =>
      c
        .option('--json', 'print JSON')
        .option('--config <file>', CONFIG_HELP)
        .option('--data-dir <dir>', DATA_DIR_HELP);
    common(
      reviews
        .command('list')
        .description('Reviews, newest first (expired ones are marked first)')
        .option('--status <status>', 'pending | approved | denied | executing | executed | failed | expired')
        .option('--tenant <tenant>', 'only this tenant')
        .option('--limit <n>', 'at most this many', '50')
        .option(
          '--viewer <user>',
          'print what this user of the directory may see (default: each review as its requester sees it)',
        ),
    ).action(async (opts) => {
      const { runReviewsList } = await import('./reviews-run.js');
      await runReviewsList(opts);
    });
    common(
      reviews
        .command('approve <id>')
        .description('Approve a pending review and run the call once, as the user who made it')
        .option('--by <user>', 'who decides', process.env.USER ?? 'cli')
        .option('--note <text>', 'why'),
    ).action(async (id: string, opts) => {
      const { runReviewsDecide } = await import('./reviews-run.js');
      await runReviewsDecide('approve', id, opts);
    });
    common(
      reviews
        .command('deny <id>')
        .description('Deny a pending review; nothing runs')
        .option('--by <user>', 'who decides', process.env.USER ?? 'cli')
        .option('--note <text>', 'why'),
    ).action(async (id: string, opts) => {
      const { runReviewsDecide } = await import('./reviews-run.js');
      await runReviewsDecide('deny', id, opts);
    });
  },
};

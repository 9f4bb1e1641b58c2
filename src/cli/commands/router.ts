import type { Command } from 'commander';
import type { CommandModule } from './command-module.js';
import type { RouterTrainCliOptions } from './router-train-run.js';

/**
 * `twinline router train --examples FILE.jsonl [--out DIR]`: trains a router for another domain
 * from its own labelled requests and writes the weights and an HTML report (confusion matrix,
 * calibration curve). Use the result with `twinline route --model DIR/router-weights.json`.
 */
export const routerCommand: CommandModule = {
  register(program: Command) {
    const router = program.command('router').description('train the intent router for another domain');
    router
      .command('train')
      .description(
        'train a router from labelled requests ({"query","label"} per line) and report on a held-out split',
      )
      .requiredOption(
        '--examples <file>',
        'JSONL: {"query" (or "text"), "label": deep | quick | readonly_fallback}',
      )
      .option('--out <dir>', 'where router-weights.json and router-report.html go', 'router-model')
      .option('--threshold <n>', 'confidence a tool line must reach (default 0.82)')
      .option('--seed <n>', 'seed of the split and the training order', '13')
      .option('--json', 'print the summary as one JSON object')
      .action(async (opts: RouterTrainCliOptions) => {
        const { runRouterTrain } = await import('./router-train-run.js');
        await runRouterTrain(opts);
      });
  },
};

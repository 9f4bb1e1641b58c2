import type { Command } from 'commander';
import type { CommandModule } from './command-module.js';
import { CONFIG_HELP } from './option-help.js';
import type { RouteCliOptions } from './route-run.js';

/**
 * `twinline route "<request>" [--json]` and `twinline route --jsonl`: which line would serve a
 * request, by the config's router (its rules, and its model when it names one). The built-in
 * sample imports only the router, so it starts fast.
 */
export const routeCommand: CommandModule = {
  register(program: Command) {
    program
      .command('route')
      .description('decide which line (deep | quick | readonly_fallback) serves a request')
      .argument('[request]', 'the request text')
      .option('--json', 'print the decision as one JSON object')
      .option('--jsonl', 'read {"id","query"} lines on stdin, write one decision per line')
      .option('--threshold <n>', 'confidence a tool line must reach (default 0.82)')
      .option('--explain', 'include classifier scores and every matched rule')
      .option(
        '--model <file>',
        'router weights to use (from `twinline router train`) instead of the shipped ones',
      )
      .option('--config <file>', CONFIG_HELP)
      .action(async (request: string | undefined, opts: RouteCliOptions) => {
        const { runRoute } = await import('./route-run.js');
        await runRoute(request, opts);
      });
  },
};

import type { Command } from 'commander';
import type { EvalCommandOptions } from '../../eval/index.js';
import type { CommandModule } from './command-module.js';

/**
 * `twinline eval SUITE...`: runs regression suites through the real pipeline and gates on misuse
 * and regressions against a baseline. The platform loads only when the action runs.
 */
export const evalCommand: CommandModule = {
  register(program: Command) {
    program
      .command('eval')
      .description('run regression suites (YAML files or folders) and report success, misuse and latency')
      .argument('<suite...>', 'suite files or folders of *.yaml')
      .option('--json', 'print the report as JSON on stdout')
      .option('--baseline <report>', 'compare with an earlier --json report and list changed scenarios')
      .option(
        '--config <file>',
        'run against this twinline config instead of the suite’s (the oracle keeps the suite’s)',
      )
      .option('--html <file>', 'also write a self-contained HTML report with charts')
      .option('--max-misuse <n>', 'misused calls tolerated (default 0)')
      .option('--max-success-drop <x>', 'largest success-rate fall vs the baseline, absolute (default 0.02)')
      .option('--max-p95-increase <x>', 'largest relative p95 latency rise vs the baseline (default 0.5)')
      .action(async (suites: string[], opts: EvalCommandOptions) => {
        const { runEvalCommand } = await import('../../eval/eval-cli.js');
        process.exitCode = await runEvalCommand(suites, opts);
      });
  },
};

import type { Command } from 'commander';
import type { CanaryCommandOptions } from '../../eval/index.js';
import type { CommandModule } from './command-module.js';

/**
 * `twinline canary start|status|promote|rollback|evaluate`: versioned config roll-outs kept in the
 * store (`--store`, else `TWINLINE_DATABASE_URL`, else `.twinline/twinline.sqlite`).
 */
export const canaryCommand: CommandModule = {
  register(program: Command) {
    // `canary start --version V` must reach the sub-command rather than print Twinline's version:
    // program options (only -V/--version and -h) are then read before the sub-command name only.
    program.enablePositionalOptions();
    const canary = program
      .command('canary')
      .description('roll a config version out to a share of users, watch it, promote or roll back');
    const run = async (action: string, opts: CanaryCommandOptions, suites: string[] = []) => {
      const { runCanaryCommand } = await import('../../eval/canary-cli.js');
      process.exitCode = await runCanaryCommand(action, opts, suites);
    };
    canary
      .command('start')
      .description('start rolling a config version out to a percentage of users')
      .requiredOption('--version <name>', 'name of the new config version')
      .requiredOption('--config <file>', 'twinline.config.yaml of that version')
      .requiredOption('--percent <p>', 'share of users (0–100, stable hash of tenant+user)')
      .option('--label <text>', 'description of the version')
      .option('--store <url>', 'postgres://… or sqlite:FILE')
      .option('--json', 'print JSON')
      .action((opts: CanaryCommandOptions) => run('start', opts));
    for (const [name, description] of [
      ['status', 'show the stable version, the running roll-out and metrics per version'],
      ['promote', 'make the running canary the stable version for everyone'],
      [
        'rollback',
        'end the running canary (or withdraw the last promotion): everyone gets the previous version',
      ],
    ] as const) {
      canary
        .command(name)
        .description(description)
        .option('--reason <text>', 'why (promote, rollback)')
        .option('--store <url>', 'postgres://… or sqlite:FILE')
        .option('--json', 'print JSON')
        .action((opts: CanaryCommandOptions) => run(name, opts));
    }
    canary
      .command('evaluate')
      .description(
        'run suites against the canary and the stable config, record metrics, roll back automatically on misuse or a success drop',
      )
      .argument('<suite...>', 'suite files or folders')
      .option('--max-success-drop <x>', 'largest success-rate fall vs stable (default 0.02)')
      .option('--store <url>', 'postgres://… or sqlite:FILE')
      .option('--json', 'print JSON')
      .action((suites: string[], opts: CanaryCommandOptions) => run('evaluate', opts, suites));
  },
};

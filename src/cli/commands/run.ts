import type { Command } from 'commander';
import type { CommandModule } from './command-module.js';
import { CONFIG_HELP, DATA_DIR_HELP } from './option-help.js';

/** `twinline run "<request>"`: one request end to end through the agent loop and the gateway. */
export const runCommand: CommandModule = {
  register(program: Command) {
    program
      .command('run')
      .description('Run one request through the agent loop; every tool call passes the gateway')
      .argument('<request>', 'what you want done, in plain words')
      .requiredOption('--user <user>', 'user name as declared in users.yaml')
      .option('--tenant <tenant>', 'tenant of the user (needed when the name exists in several)')
      .option('--model <model>', 'scripted:PATH, openai:MODEL or a model name (default: TWINLINE_MODEL)')
      .option(
        '--approval-mode <mode>',
        'plan | default | auto-edit | auto | yolo (default: the settings start mode, else default)',
      )
      .option(
        '--permission-mode <mode>',
        'the same, in either vocabulary (acceptEdits, bypassPermissions, …)',
      )
      .option('--max-turns <n>', 'model turns before the run stops', (v) => Number.parseInt(v, 10))
      .option('--json', 'print every event as one JSON line')
      .option('--config <file>', CONFIG_HELP)
      .option('--data-dir <dir>', DATA_DIR_HELP)
      .action(async (request: string, opts) => {
        const { runAgentRequest } = await import('./run-agent.js');
        process.exitCode = await runAgentRequest(request, opts);
      });
  },
};

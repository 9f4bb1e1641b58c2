import type { Command } from 'commander';
import type { CommandModule } from './command-module.js';
import { CONFIG_HELP } from './option-help.js';

/** `twinline check`: what the gateway would decide for one call, without executing it. */
export const checkCommand: CommandModule = {
  register(program: Command) {
    program
      .command('check')
      .description(
        'Dry-run one tool call through the gateway: the decision and every stage verdict (nothing runs)',
      )
      .option('--user <user>', 'user name as declared in users.yaml (not with --profile host-session)')
      .requiredOption('--tool <tool>', 'tool name')
      .option('--args <json>', 'tool arguments as a JSON object', '{}')
      .option('--tenant <tenant>', 'tenant of the user (needed when the name exists in several)')
      .option('--json', 'print JSON')
      .option('--config <file>', CONFIG_HELP)
      .option('--line <line>', 'deep or quick: whose allowlist applies (default: the line that has the tool)')
      .option(
        '--declare <tools>',
        'high-risk tools the task declared up front, comma-separated (intent stage)',
      )
      .option(
        '--request <text>',
        "the user's request: its intent phrases declare high-risk tools (intent stage)",
      )
      .option(
        '--profile <name>',
        'the door: serve.deep|serve.quick|serve.readonly|agent-session|stream-json|host-session|library, or review-replay:<door>',
      )
      .option('--explain', 'also list the profile and every pipeline slot, on or off and why')
      .option(
        '--exit-code',
        'exit 0 for allow, 1 for deny, 3 for review or ask (default: 0 whenever the check ran)',
      )
      .option('--mode <mode>', 'approval mode of a session profile (default, plan, acceptEdits, …)')
      .option('--agent <name>', 'check as this sub-agent (definitions, settings and trust of --cwd)')
      .option('--cwd <dir>', 'project folder for --agent (default: the current folder)')
      .action(async (opts) => {
        const { runCheck } = await import('./check-run.js');
        await runCheck(opts);
      });
  },
};

import type { Command } from 'commander';
import type { CommandModule } from './command-module.js';
import { CONFIG_HELP } from './option-help.js';
import type { ScanCliOptions } from './scan-run.js';

/**
 * `twinline scan [--json] [TEXT]` and `twinline scan --jsonl`: prompt-injection scan of text, with
 * the sensitive data it holds (PII: type, span, tier) beside the injection findings;
 * `--pii-only` / `--injection-only` keep one of the two. Imports only the pure gates module.
 */
export const scanCommand: CommandModule = {
  register(program: Command) {
    program
      .command('scan')
      .description('scan text for prompt injection (verdict pass | review | block) and sensitive data (PII)')
      .argument('[text]', 'the text to scan (default: stdin)')
      .option('--json', 'print the result as one JSON object')
      .option('--jsonl', 'read {"id","text","channel"} lines on stdin, write one result per line')
      .option('--channel <channel>', 'user_input | tool_output (default user_input)')
      .option('--pii-only', 'report only sensitive-data findings (type, span, tier)')
      .option('--injection-only', 'report only the injection verdict and findings')
      .option(
        '--guard-url <url>',
        'also ask a guard model at this OpenAI-compatible base URL (off by default)',
      )
      .option('--guard-model <name>', 'the guard model served there (with --guard-url)')
      .option(
        '--guard-format <format>',
        'chat (e.g. Qwen3Guard) | classify (e.g. Llama Prompt Guard 2 on vLLM)',
        'chat',
      )
      .option(
        '--guard-timeout <ms>',
        'give up on the guard after this long; the embedded scorer answers',
        '800',
      )
      .option('--config <file>', `${CONFIG_HELP}: its inputGate cut-offs`)
      .action(async (text: string | undefined, opts: ScanCliOptions) => {
        const { runScan } = await import('./scan-run.js');
        await runScan(text, opts);
      });
  },
};

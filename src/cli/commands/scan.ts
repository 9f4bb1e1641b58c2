import type { Command } from 'commander';
import type { CommandModule } from './index.js';
import { CONFIG_HELP } from './option-help.js';

/**
 * `twinline scan [--json] [TEXT]` and `twinline scan --jsonl`: prompt-injection scan of text.
 * Imports only the pure gates module, so it starts fast.
 */
export const scanCommand: CommandModule = {
  register(program: Command) {
    program
      .command('scan')
      .description('scan text for prompt injection (verdict pass | review | block)')
      .argument('[text]', 'the text to scan (default: stdin)')
      .option('--json', 'print the result as one JSON object')
      .option('--jsonl', 'read {"id","text","channel"} lines on stdin, write one result per line')
      .option('--channel <channel>', 'user_input | tool_output (default user_input)')
      .option('--config <file>', `${CONFIG_HELP}: its inputGate cut-offs`)
      .action(async (text: string | undefined, opts: ScanCliOptions) => {
        const { runScan } = await import('./scan-run.js');
        await runScan(text, opts);
      });
  },
};

export interface ScanCliOptions {
  json?: boolean;
  jsonl?: boolean;
  channel?: string;
  config?: string;
}

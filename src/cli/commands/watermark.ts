import type { Command } from 'commander';
import type { CommandModule } from './command-module.js';
import type { WatermarkDecodeOptions, WatermarkEmbedOptions } from './watermark-run.js';

/**
 * `twinline watermark decode [--json] [--text T] [--tenant T]… [--config FILE]`: recovers
 * tenant/user/session/channel from a leaked text sample (stdin by default), trying the keys of
 * the given tenants (default: every tenant of the config's users). `twinline watermark embed`
 * marks stdin (for tests and demos). The deployment key comes from --key or TWINLINE_WATERMARK_KEY.
 */
export const watermarkCommand: CommandModule = {
  register(program: Command) {
    const wm = program.command('watermark').description('embed or decode invisible session watermarks');
    wm.command('decode')
      .description('recover tenant, user, session and channel from watermarked text')
      .option('--text <text>', 'the text (default: stdin)')
      .option('--json', 'print one JSON object')
      .option('--key <key>', 'deployment watermark key (default: $TWINLINE_WATERMARK_KEY)')
      .option('--tenant <tenant...>', "tenants whose keys to try (default: the config's tenants)")
      .option('--config <file>', 'config whose users name the tenants (default: the office domain)')
      .action(async (opts: WatermarkDecodeOptions) => {
        const { runWatermarkDecode } = await import('./watermark-run.js');
        await runWatermarkDecode(opts);
      });
    wm.command('embed')
      .description('watermark stdin (or --text) for a session')
      .requiredOption('--tenant <tenant>')
      .requiredOption('--user <user>')
      .requiredOption('--session <session>')
      .option('--channel <channel>', 'channel label', 'cli')
      .option('--text <text>', 'the text (default: stdin)')
      .option('--key <key>', 'deployment watermark key (default: $TWINLINE_WATERMARK_KEY)')
      .action(async (opts: WatermarkEmbedOptions) => {
        const { runWatermarkEmbed } = await import('./watermark-run.js');
        await runWatermarkEmbed(opts);
      });
  },
};

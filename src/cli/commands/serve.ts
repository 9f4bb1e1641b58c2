import type { Command } from 'commander';
import type { CommandModule } from './index.js';

/** `twinline serve`: the HTTP API and web console (loaded only by this command). */
export const serveCommand: CommandModule = {
  register(program: Command) {
    program
      .command('serve')
      .description('serve the HTTP API and the web console (default 127.0.0.1:7420)')
      .option('--port <n>', 'port', (v) => Number.parseInt(v, 10), 7420)
      .option('--host <host>', 'interface to bind', '127.0.0.1')
      .option('--config <file>', 'twinline.config.yaml (default: the office domain)')
      .option('--model <model>', 'scripted:PATH, openai:MODEL or a model name (default: TWINLINE_MODEL)')
      .action(async (opts: { port: number; host: string; config?: string; model?: string }) => {
        if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
          throw new (await import('../../core/index.js')).TwinlineError(
            'cli.bad_port',
            `--port must be 0-65535, got ${opts.port}`,
            {
              where: '--port',
            },
          );
        }
        const { startServer } = await import('../../server/index.js');
        const server = await startServer({
          port: opts.port,
          host: opts.host,
          ...(opts.config ? { config: opts.config } : {}),
          ...(opts.model ? { model: opts.model } : {}),
        });
        const stop = (signal: string) => {
          process.stdout.write(`${signal}: draining in-flight requests…\n`);
          server.close().then(
            () => process.exit(0),
            () => process.exit(1),
          );
        };
        process.once('SIGTERM', () => stop('SIGTERM'));
        process.once('SIGINT', () => stop('SIGINT'));
        await new Promise(() => {});
      });
  },
};

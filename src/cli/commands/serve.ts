import type { Command } from 'commander';
import type { CommandModule } from './command-module.js';
import { CONFIG_HELP, DATA_DIR_HELP } from './option-help.js';

/** `twinline serve`: the HTTP API and web console (loaded only by this command). */
export const serveCommand: CommandModule = {
  register(program: Command) {
    program
      .command('serve')
      .description('serve the HTTP API and the web console (default 127.0.0.1:7420)')
      .option('--port <n>', 'port', (v) => Number.parseInt(v, 10), 7420)
      .option('--host <host>', 'interface to bind', '127.0.0.1')
      .option('--config <file>', CONFIG_HELP)
      .option('--data-dir <dir>', DATA_DIR_HELP)
      .option('--model <model>', 'scripted:PATH, openai:MODEL or a model name (default: TWINLINE_MODEL)')
      .action(
        async (opts: { port: number; host: string; config?: string; dataDir?: string; model?: string }) => {
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
            ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
            ...(opts.model ? { model: opts.model } : {}),
          });
          // Graceful on the first signal: stop accepting, drain (cancelling model calls still
          // waiting after the grace), stop workers, close the store, exit 0. A second signal exits at once.
          let stopping = false;
          const stop = (signal: 'SIGTERM' | 'SIGINT') => {
            if (stopping) process.exit(signal === 'SIGINT' ? 130 : 143);
            stopping = true;
            process.stdout.write(`${signal}: draining in-flight requests…\n`);
            // Some closing steps wait on work that holds no handle (the store's checkpoint worker
            // is unref'd): without this the loop could empty and exit before the store is closed.
            setInterval(() => {}, 60_000);
            server.close().then(
              () => {
                process.stdout.write('stopped.\n');
                process.exit(0);
              },
              () => process.exit(1),
            );
          };
          process.on('SIGTERM', () => stop('SIGTERM'));
          process.on('SIGINT', () => stop('SIGINT'));
          await new Promise(() => {});
        },
      );
  },
};

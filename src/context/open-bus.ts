import type { ContextBus, HandlerErrorSink } from './bus.js';
import { InProcessContextBus } from './in-process-bus.js';

/**
 * The context bus this process should use: NATS when `TWINLINE_NATS_URL` is set (the client is
 * imported only then), else in-process.
 */
export async function openContextBus(
  options: { env?: Readonly<Record<string, string | undefined>>; onHandlerError?: HandlerErrorSink } = {},
): Promise<ContextBus> {
  const url = (options.env ?? process.env)['TWINLINE_NATS_URL'];
  if (url) {
    const { NatsContextBus } = await import('./nats-bus.js');
    return NatsContextBus.connect(
      url,
      options.onHandlerError ? { onHandlerError: options.onHandlerError } : {},
    );
  }
  return new InProcessContextBus(options.onHandlerError);
}

import { EventEmitter } from 'node:events';
import {
  type ContextBus,
  type ContextEventFilter,
  type ContextEventHandler,
  type ContextSubscription,
  type HandlerErrorSink,
  matchesFilter,
} from './bus.js';
import { ContextBusError } from './errors.js';
import { type ContextEvent, validateContextEvent } from './event.js';

const EVENT = 'context';

/** The default bus: one process, events delivered synchronously to matching subscribers. */
export class InProcessContextBus implements ContextBus {
  private readonly emitter = new EventEmitter();
  private closed = false;

  constructor(private readonly onHandlerError: HandlerErrorSink = () => {}) {
    // many lines and sessions subscribe to one bus; the default cap of 10 is a leak warning for a single-owner emitter
    this.emitter.setMaxListeners(0);
  }

  async publish(event: ContextEvent): Promise<void> {
    if (this.closed)
      throw new ContextBusError('context.bus_closed', 'publish on a closed bus', {
        where: 'InProcessContextBus',
      });
    this.emitter.emit(EVENT, validateContextEvent(event));
  }

  subscribe(filter: ContextEventFilter, handler: ContextEventHandler): ContextSubscription {
    const listener = (event: Readonly<ContextEvent>) => {
      if (!matchesFilter(event, filter)) return;
      try {
        const out = handler(event);
        if (out && typeof (out as Promise<void>).catch === 'function')
          (out as Promise<void>).catch((e) => this.onHandlerError(e, event));
      } catch (e) {
        this.onHandlerError(e, event);
      }
    };
    this.emitter.on(EVENT, listener);
    return { unsubscribe: () => this.emitter.off(EVENT, listener) };
  }

  async flush(): Promise<void> {}

  async close(): Promise<void> {
    this.closed = true;
    this.emitter.removeAllListeners();
  }
}

import type { NatsConnection, Subscription } from 'nats';
import { importExternal } from '../core/index.js';
import {
  type ContextBus,
  type ContextEventFilter,
  type ContextEventHandler,
  type ContextSubscription,
  type HandlerErrorSink,
  matchesFilter,
} from './bus.js';
import { ContextBusError, ContextEventRejectedError } from './errors.js';
import { type ContextEvent, validateContextEvent } from './event.js';

/** Subject prefix; an event goes to `twinline.ctx.<tenant>.<user>`. */
export const CONTEXT_SUBJECT_PREFIX = 'twinline.ctx';

/** Subject of one user's events (tokens are already restricted by the event schema). */
export function contextSubject(tenant: string, user?: string): string {
  return `${CONTEXT_SUBJECT_PREFIX}.${tenant}.${user ?? '*'}`;
}

export interface NatsContextBusOptions {
  /** Called when a handler throws. */
  onHandlerError?: HandlerErrorSink;
  /** Called when a message arriving on a context subject fails validation (it is dropped). */
  onRejectedInbound?: (error: unknown, subject: string) => void;
}

/**
 * Context bus across processes over NATS core subjects. Events are validated before they are
 * published and again when they arrive: another publisher on the same NATS account is not trusted
 * to have run the check. Delivery is at-most-once (core NATS); context events are hints, and a
 * lost one costs a line some background, never correctness.
 */
export class NatsContextBus implements ContextBus {
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  private readonly subs = new Set<Subscription>();
  private rejectedInbound = 0;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly options: NatsContextBusOptions,
  ) {}

  /** Connects to `url` (loads the `nats` client only now). */
  static async connect(url: string, options: NatsContextBusOptions = {}): Promise<NatsContextBus> {
    const { connect } = await importExternal<typeof import('nats')>('nats');
    try {
      const nc = await connect({ servers: url, name: 'twinline-context-bus', timeout: 3000 });
      return new NatsContextBus(nc, options);
    } catch (err) {
      throw new ContextBusError('context.nats_connect', `cannot connect to NATS: ${(err as Error).message}`, {
        where: url,
        cause: err,
      });
    }
  }

  /** Messages dropped because they failed validation on arrival. */
  get rejectedInboundCount(): number {
    return this.rejectedInbound;
  }

  async publish(event: ContextEvent): Promise<void> {
    const ev = validateContextEvent(event);
    this.nc.publish(contextSubject(ev.tenant, ev.user), this.encoder.encode(JSON.stringify(ev)));
  }

  subscribe(filter: ContextEventFilter, handler: ContextEventHandler): ContextSubscription {
    const subject = contextSubject(filter.tenant, filter.user);
    const sub = this.nc.subscribe(subject, {
      callback: (err, msg) => {
        if (err) return;
        let ev: Readonly<ContextEvent>;
        try {
          ev = validateContextEvent(JSON.parse(this.decoder.decode(msg.data)));
        } catch (e) {
          this.rejectedInbound++;
          this.options.onRejectedInbound?.(
            e instanceof ContextEventRejectedError
              ? e
              : new ContextEventRejectedError('context.inbound_unparseable', 'not JSON', {
                  where: msg.subject,
                }),
            msg.subject,
          );
          return;
        }
        if (!matchesFilter(ev, filter)) return;
        try {
          const out = handler(ev);
          if (out && typeof (out as Promise<void>).catch === 'function')
            (out as Promise<void>).catch((e) => this.options.onHandlerError?.(e, ev));
        } catch (e) {
          this.options.onHandlerError?.(e, ev);
        }
      },
    });
    this.subs.add(sub);
    return {
      unsubscribe: () => {
        sub.unsubscribe();
        this.subs.delete(sub);
      },
    };
  }

  async flush(): Promise<void> {
    await this.nc.flush();
  }

  async close(): Promise<void> {
    if (this.nc.isClosed()) return;
    await this.nc.drain();
  }
}

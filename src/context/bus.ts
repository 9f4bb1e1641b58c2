import type { ContextEvent, ContextLine } from './event.js';

/** Which events a subscriber receives. The tenant is required: no subscription spans tenants. */
export interface ContextEventFilter {
  tenant: string;
  /** Omit for every user of the tenant. */
  user?: string;
  kinds?: readonly string[];
  fromLine?: ContextLine;
}

export type ContextEventHandler = (event: Readonly<ContextEvent>) => void | Promise<void>;

export interface ContextSubscription {
  unsubscribe(): void;
}

/**
 * How lines share what happened without sharing data. `publish` validates every event
 * (`validateContextEvent`) and refuses raw records with `ContextEventRejectedError`; subscribers
 * receive validated, frozen events.
 */
export interface ContextBus {
  publish(event: ContextEvent): Promise<void>;
  subscribe(filter: ContextEventFilter, handler: ContextEventHandler): ContextSubscription;
  /** Resolves once everything published so far has been handed to the transport. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** True when an event passes a filter. Pure; shared by every bus implementation. */
export function matchesFilter(event: ContextEvent, filter: ContextEventFilter): boolean {
  if (event.tenant !== filter.tenant) return false;
  if (filter.user !== undefined && event.user !== filter.user) return false;
  if (filter.fromLine !== undefined && event.fromLine !== filter.fromLine) return false;
  if (filter.kinds !== undefined && !filter.kinds.includes(event.kind)) return false;
  return true;
}

/** Called when a subscriber's handler throws; the bus keeps delivering to the others. */
export type HandlerErrorSink = (error: unknown, event: Readonly<ContextEvent>) => void;

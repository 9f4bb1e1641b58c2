import type { ToolSpec } from '../../tools/index.js';

/** Where a server came from: the configuration, the host's own process (SDK), or a host request. */
export type McpServerSource = 'config' | 'sdk' | 'host';

export type McpServerState = 'pending' | 'connected' | 'failed' | 'disabled';

/** One server as `mcp_status` reports it. */
export interface McpServerStatus {
  readonly name: string;
  readonly source: McpServerSource;
  readonly status: McpServerState;
  readonly tools: readonly string[];
  readonly error?: string;
}

/** A connected server's tools and how to let it go. */
export interface McpServerLink {
  readonly tools: readonly ToolSpec[];
  close(): Promise<void>;
}

/** Where a server's tools are registered (a `ToolRegistry`). */
export interface ToolSink {
  register(spec: ToolSpec): void;
  unregister(name: string): boolean;
}

interface Entry {
  readonly name: string;
  readonly source: McpServerSource;
  readonly connect: () => Promise<McpServerLink>;
  state: McpServerState;
  link: McpServerLink | undefined;
  error: string | undefined;
  tools: string[];
  /** The connection in progress, so two requests never connect the same server twice. */
  pending: Promise<void> | undefined;
}

/**
 * The MCP servers of one session and the tools they registered: connect, switch off and on,
 * reconnect, replace, report. A server that fails to connect is reported `failed` with its error
 * and registers nothing; the others are not affected. Tools are manifests like any other, so
 * every call still passes the gateway.
 */
export class McpServerSet {
  readonly #servers = new Map<string, Entry>();

  constructor(private readonly sink: ToolSink) {}

  has(name: string): boolean {
    return this.#servers.has(name);
  }

  /** Adds a server (not connected yet). Throws when the name is taken. */
  add(name: string, source: McpServerSource, connect: () => Promise<McpServerLink>): void {
    if (this.#servers.has(name)) throw new Error(`an MCP server named ${name} is already registered`);
    this.#servers.set(name, {
      name,
      source,
      connect,
      state: 'pending',
      link: undefined,
      error: undefined,
      tools: [],
      pending: undefined,
    });
  }

  /** Connects every pending server, in parallel; resolves when each is connected or failed. */
  async connectPending(): Promise<void> {
    await Promise.all(
      [...this.#servers.values()].filter((e) => e.state === 'pending').map((e) => this.#connect(e)),
    );
  }

  /** Switches a server off (its tools vanish) or on again (it reconnects). */
  async toggle(name: string, enabled: boolean): Promise<McpServerStatus> {
    const e = this.#entry(name);
    if (!enabled) {
      await this.#disconnect(e);
      e.state = 'disabled';
      e.error = undefined;
    } else if (e.state === 'disabled' || e.state === 'failed') {
      e.state = 'pending';
      await this.#connect(e);
    }
    return this.#status(e);
  }

  /** Drops the connection and connects again (a disabled server stays off). */
  async reconnect(name: string): Promise<McpServerStatus> {
    const e = this.#entry(name);
    if (e.state === 'disabled') return this.#status(e);
    await this.#disconnect(e);
    e.state = 'pending';
    await this.#connect(e);
    return this.#status(e);
  }

  /** Removes a server and its tools. */
  async remove(name: string): Promise<void> {
    const e = this.#servers.get(name);
    if (!e) return;
    await this.#disconnect(e);
    this.#servers.delete(name);
  }

  /** Every server with its state and tools, in the order they were added. */
  status(source?: McpServerSource): McpServerStatus[] {
    return [...this.#servers.values()]
      .filter((e) => !source || e.source === source)
      .map((e) => this.#status(e));
  }

  /** The names of servers from `source`. */
  names(source: McpServerSource): string[] {
    return [...this.#servers.values()].filter((e) => e.source === source).map((e) => e.name);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#servers.values()].map((e) => this.#disconnect(e)));
  }

  #entry(name: string): Entry {
    const e = this.#servers.get(name);
    if (!e) {
      const known = [...this.#servers.keys()];
      throw new Error(`no MCP server named ${name}; known: ${known.length ? known.join(', ') : '(none)'}`);
    }
    return e;
  }

  #status(e: Entry): McpServerStatus {
    return {
      name: e.name,
      source: e.source,
      status: e.state,
      tools: [...e.tools],
      ...(e.error ? { error: e.error } : {}),
    };
  }

  #connect(e: Entry): Promise<void> {
    e.pending ??= (async () => {
      try {
        const link = await e.connect();
        const registered: string[] = [];
        try {
          for (const t of link.tools) {
            this.sink.register(t);
            registered.push(t.name);
          }
        } catch (err) {
          for (const n of registered) this.sink.unregister(n);
          await link.close().catch(() => undefined);
          throw err;
        }
        e.link = link;
        e.tools = registered;
        e.state = 'connected';
        e.error = undefined;
      } catch (err) {
        e.state = 'failed';
        e.error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      } finally {
        e.pending = undefined;
      }
    })();
    return e.pending;
  }

  async #disconnect(e: Entry): Promise<void> {
    if (e.pending) await e.pending;
    for (const n of e.tools) this.sink.unregister(n);
    e.tools = [];
    const link = e.link;
    e.link = undefined;
    await link?.close().catch(() => undefined);
  }
}

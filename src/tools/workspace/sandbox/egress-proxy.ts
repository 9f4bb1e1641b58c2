import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, net } from '../lazy-builtins.js';
import { addressesOf, isNonPublicAddress } from '../network-address.js';

/** Which hosts a `network` sandbox may reach through the proxy. */
export interface EgressPolicy {
  /** `example.com` (and its subdomains), or `*` for any public host. Empty: nothing. */
  readonly allowedDomains: readonly string[];
  readonly deniedDomains?: readonly string[];
  /**
   * Let allowed hosts resolve to loopback, private, link-local and similar addresses. Off by
   * default, exactly like `web_fetch`'s `fetch.allowPrivateNetwork` (the same address guard).
   */
  readonly allowPrivateNetwork?: boolean;
}

/** One refused or admitted request, for the caller's record. */
export interface EgressEvent {
  readonly host: string;
  readonly port: number;
  readonly admitted: boolean;
  readonly reason?: string;
}

export interface EgressProxy {
  /** Host directory holding `proxy.sock` (mounted into the sandbox). */
  readonly dir: string;
  readonly socketPath: string;
  readonly events: readonly EgressEvent[];
  close(): Promise<void>;
}

/** True when `host` is covered by `domain` (`*`, the domain itself, or a subdomain of it). */
export function domainCovers(domain: string, host: string): boolean {
  const d = domain.toLowerCase().replace(/^\*\./, '');
  return d === '*' || host === d || host.endsWith(`.${d}`);
}

/**
 * The allowlisting HTTP proxy a `network` sandbox reaches through its only way out (a Unix socket
 * bridged into the sandbox's otherwise empty network namespace). It serves `CONNECT host:port`
 * and absolute-form `GET http://…`: the host must be on the allowlist and off the denylist, and
 * every address it resolves to must be public — the same guard as `web_fetch` — and the proxy
 * then connects to the address it checked, so a second lookup cannot rebind it.
 */
export async function startEgressProxy(policy: EgressPolicy): Promise<EgressProxy> {
  const { createServer, request } = http();
  const dir = mkdtempSync(join(tmpdir(), 'twinline-egress-'));
  const socketPath = join(dir, 'proxy.sock');
  const events: EgressEvent[] = [];
  const sockets = new Set<Socket>();

  const admit = async (rawHost: string, port: number): Promise<{ address: string } | { reason: string }> => {
    const host = rawHost.replace(/^\[|\]$/g, '').toLowerCase();
    const refuse = (reason: string) => {
      events.push({ host, port, admitted: false, reason });
      return { reason };
    };
    if (host === '' || !Number.isInteger(port) || port < 1 || port > 65535) return refuse('bad target');
    if (policy.deniedDomains?.some((d) => domainCovers(d, host))) return refuse(`${host} is denied`);
    if (!policy.allowedDomains.some((d) => domainCovers(d, host))) {
      return refuse(`${host} is not on the sandbox's network allowlist`);
    }
    let addresses: string[];
    try {
      addresses = await addressesOf(host);
    } catch (error) {
      return refuse(`cannot resolve ${host}: ${(error as Error).message}`);
    }
    const address = addresses[0];
    if (address === undefined) return refuse(`${host} has no address`);
    if (!policy.allowPrivateNetwork) {
      const bad = addresses.find(isNonPublicAddress);
      if (bad !== undefined) return refuse(`${host} resolves to the non-public address ${bad}`);
    }
    events.push({ host, port, admitted: true });
    return { address };
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute http:// URL required\n');
      return;
    }
    if (url.protocol !== 'http:') {
      res.writeHead(400).end('only http:// is proxied this way; use CONNECT for TLS\n');
      return;
    }
    void admit(url.hostname, Number(url.port || 80)).then((verdict) => {
      if ('reason' in verdict) {
        res
          .writeHead(403, { 'content-type': 'text/plain' })
          .end(`refused by the sandbox: ${verdict.reason}\n`);
        return;
      }
      const headers = { ...req.headers };
      delete headers['proxy-authorization'];
      delete headers['proxy-connection'];
      const upstream = request(
        {
          host: verdict.address,
          port: Number(url.port || 80),
          method: req.method,
          path: `${url.pathname}${url.search}`,
          headers: { ...headers, host: url.host },
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', (error) => {
        if (!res.headersSent) res.writeHead(502).end(`upstream failed: ${error.message}\n`);
        else res.destroy();
      });
      req.pipe(upstream);
    });
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const target = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const port = Number(target[2]);
    void admit(target[1]!, port).then((verdict) => {
      if ('reason' in verdict) {
        client.end(
          `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\nrefused by the sandbox: ${verdict.reason}\n`,
        );
        return;
      }
      const upstream = net().connect({ host: verdict.address, port }, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => {
        client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      });
      client.on('close', () => upstream.destroy());
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    dir,
    socketPath,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

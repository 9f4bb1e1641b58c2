import { z } from 'zod';
import { hostSubject } from '../permission-subjects.js';
import type { ToolSpec } from '../spec.js';
import { WorkspaceToolError } from './errors.js';
import { nonPublicAddressOf } from './network-address.js';
import { workspacePermissions } from './workspace-manifest.js';
import type { WorkspaceToolOptions } from './workspace-options.js';

const input = z.strictObject({
  url: z.string().url().describe('http(s) URL to fetch'),
  maxBytes: z.number().int().min(1).optional().describe('Body bytes to keep (capped by configuration)'),
  timeoutMs: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Time limit in milliseconds (capped by configuration)'),
});

export interface WebFetchResult {
  readonly url: string;
  /** After redirects. */
  readonly finalUrl: string;
  readonly status: number;
  readonly contentType: string;
  /** Text from outside: the gateway quotes it as data (declared in `thirdPartyFields`). */
  readonly body: string;
  readonly truncated: boolean;
}

/** `web_fetch`: GET a URL with a timeout and a body size cap; the body is third-party text. */
export function createWebFetchTool(
  options: WorkspaceToolOptions,
): ToolSpec<z.infer<typeof input>, WebFetchResult> {
  const maxTimeout = options.fetch?.timeoutMs ?? 30_000;
  const maxBytesCap = options.fetch?.maxBytes ?? 512 * 1024;
  const allowNonPublic = options.fetch?.allowPrivateNetwork === true;
  return {
    name: 'web_fetch',
    description: 'Fetch a web page or HTTP resource (GET) and return its status, content type and text body.',
    inputSchema: input,
    annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
    // Medium, not low: the URL itself can carry data out.
    riskLevel: 'medium',
    permissions: workspacePermissions(options),
    requiresReview: false,
    timeoutMs: maxTimeout + 5_000,
    thirdPartyFields: ['body'],
    concurrencySafe: true,
    kind: 'fetch',
    permissionSubject: hostSubject,
    async execute(args, ctx) {
      const timeoutMs = Math.min(maxTimeout, args.timeoutMs ?? maxTimeout);
      const maxBytes = Math.min(maxBytesCap, args.maxBytes ?? maxBytesCap);
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]);
      // Redirects are followed by hand so that every hop passes the same scheme and address checks.
      let url = new URL(args.url);
      let response: Response;
      for (let hop = 0; ; hop++) {
        await assertFetchable(url, allowNonPublic);
        try {
          response = await fetch(url, {
            signal,
            redirect: 'manual',
            headers: { accept: 'text/*, application/json;q=0.9, */*;q=0.5' },
          });
        } catch (error) {
          throw fetchError(error, args.url, timeoutMs);
        }
        const location = response.headers.get('location');
        if (response.status < 300 || response.status >= 400 || !location) break;
        await response.body?.cancel().catch(() => {});
        if (hop >= MAX_REDIRECTS) {
          throw new WorkspaceToolError(
            'workspace.fetch-redirects',
            `more than ${MAX_REDIRECTS} redirects from ${args.url}`,
            'web_fetch',
          );
        }
        url = new URL(location, url);
      }
      const { text, truncated } = await readCapped(response, maxBytes, args.url, timeoutMs);
      return {
        url: args.url,
        finalUrl: url.toString(),
        status: response.status,
        contentType: response.headers.get('content-type') ?? '',
        body: text,
        truncated,
      };
    },
  };
}

const MAX_REDIRECTS = 5;

/** Refuses schemes other than http(s) and, unless allowed, hosts that resolve to non-public addresses. */
async function assertFetchable(url: URL, allowNonPublic: boolean): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WorkspaceToolError(
      'workspace.fetch-scheme',
      `only http and https URLs are fetched, not ${url.protocol}`,
      'web_fetch',
    );
  }
  if (allowNonPublic) return;
  let address: string | undefined;
  try {
    address = await nonPublicAddressOf(url.hostname);
  } catch (error) {
    throw new WorkspaceToolError(
      'workspace.fetch-failed',
      `cannot resolve ${url.hostname}: ${String(error)}`,
      'web_fetch',
    );
  }
  if (address !== undefined) {
    throw new WorkspaceToolError(
      'workspace.fetch-private-address',
      `${url.hostname} resolves to the non-public address ${address}; set fetch.allowPrivateNetwork to reach internal hosts`,
      'web_fetch',
      { host: url.hostname, address },
    );
  }
}

/** Reads at most `maxBytes` of the body, then cancels the stream so a huge or endless body costs nothing more. */
async function readCapped(
  response: Response,
  maxBytes: number,
  url: string,
  timeoutMs: number,
): Promise<{ text: string; truncated: boolean }> {
  if (!response.body) return { text: '', truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = maxBytes - size;
      if (value.length >= room) {
        chunks.push(value.subarray(0, room));
        size += room;
        truncated = value.length > room || !(await reader.read().then((r) => r.done));
        break;
      }
      chunks.push(value);
      size += value.length;
    }
  } catch (error) {
    throw fetchError(error, url, timeoutMs);
  } finally {
    await reader.cancel().catch(() => {});
  }
  return { text: new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks)), truncated };
}

function fetchError(error: unknown, url: string, timeoutMs: number): WorkspaceToolError {
  const name = (error as Error)?.name;
  if (name === 'TimeoutError') {
    return new WorkspaceToolError(
      'workspace.fetch-timeout',
      `fetching ${url} exceeded ${timeoutMs} ms`,
      'web_fetch',
    );
  }
  if (name === 'AbortError')
    return new WorkspaceToolError('workspace.aborted', `fetching ${url} aborted`, 'web_fetch');
  return new WorkspaceToolError(
    'workspace.fetch-failed',
    `fetching ${url} failed: ${String((error as Error)?.message ?? error)}`,
    'web_fetch',
  );
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One scripted reply of the stub: an SSE stream of chunks (held open after them with `hold`), an
 * error status, a whole JSON completion (non-streaming), or `hang`: headers never sent.
 */
export type StubReply =
  | { readonly kind: 'stream'; readonly chunks: readonly Record<string, unknown>[]; readonly hold?: boolean }
  | { readonly kind: 'json'; readonly body: Record<string, unknown> }
  | { readonly kind: 'hang' }
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly headers?: Record<string, string>;
      readonly body?: unknown;
    };

export interface StubRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly authorization: string | undefined;
}

/**
 * A real HTTP server speaking the Chat Completions API (SSE streaming), replying from a queue.
 * `closed` resolves when a held stream's client disconnects (proves cancellation reached the wire).
 */
export class ChatCompletionsStub {
  readonly requests: StubRequest[] = [];
  readonly #replies: StubReply[] = [];
  readonly #server: Server;
  #onClientClose: (() => void) | undefined;
  readonly clientClosed: Promise<void>;

  constructor() {
    this.clientClosed = new Promise((resolve) => {
      this.#onClientClose = resolve;
    });
    this.#server = createServer((req, res) => void this.#handle(req, res));
  }

  reply(...replies: StubReply[]): this {
    this.#replies.push(...replies);
    return this;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    this.requests.push({
      path: req.url ?? '',
      body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
      authorization: req.headers.authorization,
    });
    const reply = this.#replies.shift();
    if (!reply) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'stub has no reply left' } }));
      return;
    }
    if (reply.kind === 'hang') {
      res.on('close', () => this.#onClientClose?.());
      return;
    }
    if (reply.kind === 'json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
      return;
    }
    if (reply.kind === 'status') {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body ?? { error: { message: `status ${reply.status}`, type: 'stub' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const c of reply.chunks) res.write(`data: ${JSON.stringify(c)}\n\n`);
    if (reply.hold) {
      res.on('close', () => this.#onClientClose?.());
      return;
    }
    res.end('data: [DONE]\n\n');
  }
}

/** A streamed chunk carrying a text delta. */
export function textChunk(text: string, finish: string | null = null): Record<string, unknown> {
  return {
    id: 'chatcmpl-stub',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'stub-model',
    choices: [{ index: 0, delta: { content: text }, finish_reason: finish }],
  };
}

/** A streamed chunk carrying a tool-call fragment. */
export function toolCallChunk(
  index: number,
  fragment: { id?: string; name?: string; arguments?: string },
  finish: string | null = null,
): Record<string, unknown> {
  return {
    id: 'chatcmpl-stub',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'stub-model',
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [
            {
              index,
              ...(fragment.id ? { id: fragment.id, type: 'function' } : {}),
              function: {
                ...(fragment.name ? { name: fragment.name } : {}),
                ...(fragment.arguments !== undefined ? { arguments: fragment.arguments } : {}),
              },
            },
          ],
        },
        finish_reason: finish,
      },
    ],
  };
}

/** The final usage chunk (`stream_options.include_usage`). */
export function usageChunk(prompt: number, completion: number): Record<string, unknown> {
  return {
    id: 'chatcmpl-stub',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'stub-model',
    choices: [],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One scripted reply of the Messages API stub: a stream of server-sent events (`event:` + `data:`),
 * a whole message (non-streaming), an error status with Anthropic's error body, or `hang`.
 */
export type MessagesReply =
  | { readonly kind: 'events'; readonly events: readonly Record<string, unknown>[]; readonly hold?: boolean }
  | { readonly kind: 'message'; readonly body: Record<string, unknown> }
  | { readonly kind: 'status'; readonly status: number; readonly message?: string }
  | { readonly kind: 'hang' };

export interface MessagesRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly apiKey: string | undefined;
  readonly version: string | undefined;
}

/** A real HTTP server speaking Anthropic's Messages API (`POST /v1/messages`), replying from a queue. */
export class MessagesApiStub {
  readonly requests: MessagesRequest[] = [];
  readonly #replies: MessagesReply[] = [];
  readonly #server: Server = createServer((req, res) => void this.#handle(req, res));
  #closed: () => void = () => {};
  readonly clientClosed = new Promise<void>((resolve) => {
    this.#closed = resolve;
  });

  reply(...replies: MessagesReply[]): this {
    this.#replies.push(...replies);
    return this;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
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
      // the official client sends the key as `x-api-key` or as a bearer token, by version
      apiKey:
        (req.headers['x-api-key'] as string | undefined) ??
        req.headers.authorization?.replace(/^Bearer\s+/i, ''),
      version: req.headers['anthropic-version'] as string | undefined,
    });
    const reply = this.#replies.shift() ?? { kind: 'status', status: 500, message: 'stub has no reply left' };
    if (reply.kind === 'hang') {
      res.on('close', () => this.#closed());
      return;
    }
    if (reply.kind === 'status') {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          type: 'error',
          error: { type: 'api_error', message: reply.message ?? `status ${reply.status}` },
        }),
      );
      return;
    }
    if (reply.kind === 'message') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const e of reply.events) res.write(`event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`);
    if (reply.hold) res.on('close', () => this.#closed());
    else res.end();
  }
}

/** The events of a streamed answer: optional text, then tool_use blocks with their JSON in pieces. */
export function messageEvents(
  parts: {
    text?: readonly string[];
    tools?: readonly { id: string; name: string; json: readonly string[] }[];
    stop?: string;
  },
  usage = { input: 11, output: 7 },
): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [
    {
      type: 'message_start',
      message: {
        id: 'msg_stub',
        type: 'message',
        role: 'assistant',
        model: 'stub',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: 1 },
      },
    },
  ];
  let index = 0;
  if (parts.text) {
    events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const t of parts.text)
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } });
    events.push({ type: 'content_block_stop', index });
    index++;
  }
  for (const tool of parts.tools ?? []) {
    events.push({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: tool.id, name: tool.name, input: {} },
    });
    for (const j of tool.json)
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: j },
      });
    events.push({ type: 'content_block_stop', index });
    index++;
  }
  events.push({
    type: 'message_delta',
    delta: {
      stop_reason: parts.stop ?? (parts.tools?.length ? 'tool_use' : 'end_turn'),
      stop_sequence: null,
    },
    usage: { output_tokens: usage.output },
  });
  events.push({ type: 'message_stop' });
  return events;
}

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InterruptedError,
  type ModelDelta,
  type ModelTurnRequest,
  OpenAICompatibleProvider,
  ProviderError,
} from '../../src/agent/index.js';
import {
  ChatCompletionsStub,
  textChunk,
  toolCallChunk,
  usageChunk,
} from './support/chat-completions-stub.js';

let stub: ChatCompletionsStub;
let baseURL: string;

beforeEach(async () => {
  stub = new ChatCompletionsStub();
  baseURL = await stub.start();
});
afterEach(async () => {
  await stub.stop();
});

function provider(): OpenAICompatibleProvider {
  return new OpenAICompatibleProvider({
    model: 'stub-model',
    baseURL,
    apiKey: 'test-key',
    retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 50 },
  });
}

function request(signal = new AbortController().signal): ModelTurnRequest {
  return {
    system: 'be brief',
    messages: [
      { role: 'user', content: 'hello' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'calendar_list', arguments: { day: 'today' } }],
      },
      { role: 'tool', toolCallId: 'c1', name: 'calendar_list', content: '[]' },
    ],
    tools: [
      { name: 'calendar_list', description: 'List meetings', parameters: { type: 'object', properties: {} } },
    ],
    signal,
  };
}

async function collect(it: AsyncIterable<ModelDelta>): Promise<ModelDelta[]> {
  const out: ModelDelta[] = [];
  for await (const d of it) out.push(d);
  return out;
}

describe('OpenAI-compatible provider against a local Chat Completions server', () => {
  it('streams text deltas and ends with the full message and usage', async () => {
    stub.reply({
      kind: 'stream',
      chunks: [textChunk('Hel'), textChunk('lo '), textChunk('there', 'stop'), usageChunk(12, 3)],
    });
    const deltas = await collect(provider().turn(request()));
    expect(deltas.filter((d) => d.type === 'text_delta').map((d) => (d as { text: string }).text)).toEqual([
      'Hel',
      'lo ',
      'there',
    ]);
    const last = deltas.at(-1);
    expect(last).toEqual({
      type: 'message',
      message: { text: 'Hello there', toolCalls: [], finishReason: 'stop' },
      usage: { inputTokens: 12, outputTokens: 3 },
    });
    // What went over the wire: system first, the tool result tied to its call, tools declared, streaming on.
    const body = stub.requests[0]!.body;
    expect(stub.requests[0]!.path).toBe('/v1/chat/completions');
    expect(stub.requests[0]!.authorization).toBe('Bearer test-key');
    expect(body.stream).toBe(true);
    expect(body.model).toBe('stub-model');
    expect(body.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hello' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'calendar_list', arguments: '{"day":"today"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '[]' },
    ]);
    expect((body.tools as { function: { name: string } }[])[0]!.function.name).toBe('calendar_list');
  });

  it('assembles tool calls from fragments spread over chunks', async () => {
    stub.reply({
      kind: 'stream',
      chunks: [
        toolCallChunk(0, { id: 'call_a', name: 'sales_query', arguments: '{"reg' }),
        toolCallChunk(1, { id: 'call_b', name: 'doc_search', arguments: '' }),
        toolCallChunk(0, { arguments: 'ion":"east"}' }),
        toolCallChunk(1, { arguments: '{"query":"q3"}' }, 'tool_calls'),
      ],
    });
    const deltas = await collect(provider().turn(request()));
    const msg = deltas.at(-1);
    expect(msg?.type).toBe('message');
    if (msg?.type !== 'message') return;
    expect(msg.message.finishReason).toBe('tool_calls');
    expect(msg.message.toolCalls).toEqual([
      { id: 'call_a', name: 'sales_query', arguments: { region: 'east' } },
      { id: 'call_b', name: 'doc_search', arguments: { query: 'q3' } },
    ]);
  });

  it('keeps unparseable arguments as raw text for the gateway to refuse', async () => {
    stub.reply({
      kind: 'stream',
      chunks: [toolCallChunk(0, { id: 'x', name: 'sales_query', arguments: '{oops' }, 'tool_calls')],
    });
    const msg = (await collect(provider().turn(request()))).at(-1);
    expect(msg?.type === 'message' && msg.message.toolCalls[0]!.arguments).toBe('{oops');
  });

  it('retries a 429, honouring Retry-After, then succeeds', async () => {
    stub.reply(
      { kind: 'status', status: 429, headers: { 'retry-after-ms': '20' } },
      { kind: 'status', status: 503 },
      { kind: 'stream', chunks: [textChunk('ok', 'stop')] },
    );
    const deltas = await collect(provider().turn(request()));
    expect(stub.requests).toHaveLength(3);
    const retries = deltas.filter((d) => d.type === 'retry');
    expect(retries).toEqual([
      {
        type: 'retry',
        attempt: 1,
        delayMs: 20,
        status: 429,
        reason: 'openai:stub-model: the model service answered HTTP 429',
      },
      expect.objectContaining({ type: 'retry', attempt: 2, status: 503 }),
    ]);
    expect(deltas.at(-1)).toMatchObject({ type: 'message', message: { text: 'ok' } });
  });

  it('gives up after the retry budget with a typed error naming the status', async () => {
    stub.reply(...Array.from({ length: 4 }, () => ({ kind: 'status' as const, status: 500 })));
    const err = await collect(provider().turn(request())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).status).toBe(500);
    expect(stub.requests).toHaveLength(4);
  });

  it('does not retry a client error', async () => {
    stub.reply({ kind: 'status', status: 400, body: { error: { message: 'bad tools' } } });
    const err = await collect(provider().turn(request())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).status).toBe(400);
    expect(stub.requests).toHaveLength(1);
  });

  it('cancels mid-stream: the request is dropped on the wire and the turn ends interrupted', async () => {
    stub.reply({ kind: 'stream', chunks: [textChunk('partial ')], hold: true });
    const ac = new AbortController();
    const seen: ModelDelta[] = [];
    const err = await (async () => {
      for await (const d of provider().turn(request(ac.signal))) {
        seen.push(d);
        if (d.type === 'text_delta') ac.abort();
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(seen).toEqual([{ type: 'text_delta', text: 'partial ' }]);
    await stub.clientClosed;
  });

  it('cancels while waiting to retry', async () => {
    stub.reply({ kind: 'status', status: 429, headers: { 'retry-after': '30' } });
    const ac = new AbortController();
    const p = new OpenAICompatibleProvider({
      model: 'stub-model',
      baseURL,
      apiKey: 'k',
      retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 60_000 },
    });
    const err = await (async () => {
      for await (const d of p.turn(request(ac.signal))) if (d.type === 'retry') ac.abort();
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(stub.requests).toHaveLength(1);
  });
});

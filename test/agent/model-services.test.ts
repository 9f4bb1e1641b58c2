import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AnthropicMessagesProvider,
  createProvider,
  InterruptedError,
  type ModelDelta,
  type ModelProvider,
  type ModelTurnRequest,
  modelServiceSettings,
  OpenAICompatibleProvider,
  ProviderConfigError,
  ProviderError,
  parseProviderSpec,
} from '../../src/agent/index.js';
import { ChatCompletionsStub, textChunk, toolCallChunk } from './support/chat-completions-stub.js';
import { MessagesApiStub, messageEvents } from './support/messages-api-stub.js';

/** Timeouts no answering stub comes near, even on a loaded machine. */
const FAST = { requestTimeoutMs: 20_000, streamIdleTimeoutMs: 20_000, maxRetries: 0 };
/** Short timeouts, only where the stub hangs: it is abandoned quickly (the assertions are on what happens, not when). */
const HUNG = { requestTimeoutMs: 300, streamIdleTimeoutMs: 300, maxRetries: 0 };

function request(signal = new AbortController().signal): ModelTurnRequest {
  return {
    system: 'be brief',
    messages: [
      { role: 'user', content: 'look up Acme' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 't1', name: 'customer_lookup', arguments: { name: 'Acme' } }],
      },
      { role: 'tool', toolCallId: 't1', name: 'customer_lookup', content: '{"found":1}' },
    ],
    tools: [
      {
        name: 'customer_lookup',
        description: 'Find a customer',
        parameters: { type: 'object', properties: { name: { type: 'string' } } },
      },
    ],
    signal,
  };
}

async function collect(provider: ModelProvider, req = request()): Promise<ModelDelta[]> {
  const out: ModelDelta[] = [];
  for await (const d of provider.turn(req)) out.push(d);
  return out;
}

async function failure(provider: ModelProvider, req = request()): Promise<ProviderError> {
  const err = await collect(provider, req).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

/** A port nothing listens on (bound, then closed). */
async function deadPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('provider specs', () => {
  it.each([
    ['gpt-4o', { kind: 'openai', model: 'gpt-4o' }],
    ['openai:qwen2.5:7b', { kind: 'openai', model: 'qwen2.5:7b' }],
    ['anthropic:claude-sonnet-4-5', { kind: 'anthropic', model: 'claude-sonnet-4-5' }],
    ['scripted:turns.json', { kind: 'scripted', path: 'turns.json' }],
  ])('%s → %j', (spec, parsed) => {
    expect(parseProviderSpec(spec)).toEqual(parsed);
  });

  it('an unknown prefix is an error naming the known ones, never a request to OpenAI', () => {
    const err = (() => {
      try {
        parseProviderSpec('foo:bar');
      } catch (e) {
        return e;
      }
    })() as ProviderConfigError;
    expect(err).toBeInstanceOf(ProviderConfigError);
    expect(err.code).toBe('agent.unknown_provider');
    expect(err.message).toMatch(/"foo".*scripted:, openai:, anthropic:/);
    expect(() => createProvider('foo:bar', {})).toThrow(/unknown model provider/);
  });

  it('settings: defaults a user expects, the file, then the environment; bad values name the variable', () => {
    expect(modelServiceSettings(undefined, {})).toEqual({
      requestTimeoutMs: 60_000,
      streamIdleTimeoutMs: 30_000,
      stream: true,
      maxRetries: 2,
    });
    expect(
      modelServiceSettings({ requestTimeoutMs: 5000, stream: false }, { TWINLINE_MODEL_TIMEOUT_MS: '7000' }),
    ).toMatchObject({ requestTimeoutMs: 7000, stream: false });
    expect(modelServiceSettings(undefined, { TWINLINE_MODEL_STREAM: 'false' }).stream).toBe(false);
    expect(() => modelServiceSettings(undefined, { TWINLINE_MODEL_IDLE_TIMEOUT_MS: 'soon' })).toThrow(
      /TWINLINE_MODEL_IDLE_TIMEOUT_MS/,
    );
    expect(() => modelServiceSettings(undefined, { TWINLINE_MODEL_STREAM: 'maybe' })).toThrow(
      /TWINLINE_MODEL_STREAM/,
    );
  });
});

describe('OpenAI-compatible service: timeouts, errors, modes', () => {
  let stub: ChatCompletionsStub;
  let baseURL: string;
  beforeEach(async () => {
    stub = new ChatCompletionsStub();
    baseURL = await stub.start();
  });
  afterEach(async () => {
    await stub.stop();
  });
  const openai = (service: object = FAST) =>
    new OpenAICompatibleProvider({ model: 'stub-model', baseURL, apiKey: 'sk-test', service });

  it('a server that never answers: the request timeout ends the turn, the request is dropped, no retry', async () => {
    stub.reply({ kind: 'hang' }, { kind: 'stream', chunks: [textChunk('late', 'stop')] });
    const err = await failure(openai({ ...HUNG, maxRetries: 3 }));
    expect(err.failure).toBe('timeout');
    expect(err.message).toMatch(/did not respond within 300 ms/);
    await stub.clientClosed;
    expect(stub.requests).toHaveLength(1);
  });

  it('a stream that goes silent: the idle timeout ends it and nothing half-read is returned', async () => {
    stub.reply({
      kind: 'stream',
      chunks: [toolCallChunk(0, { id: 'c', name: 'customer_lookup', arguments: '{"na' })],
      hold: true,
    });
    const err = await failure(openai(HUNG));
    expect(err.failure).toBe('stream_idle');
    expect(err.message).toMatch(/silent for 300 ms/);
    await stub.clientClosed;
  });

  it('a refused connection says what happened and where, and is retried', async () => {
    const port = await deadPort();
    const p = new OpenAICompatibleProvider({
      model: 'm',
      baseURL: `http://127.0.0.1:${port}/v1`,
      apiKey: 'k',
      service: { ...FAST, maxRetries: 1 },
      retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5 },
    });
    const deltas: ModelDelta[] = [];
    const err = await (async () => {
      for await (const d of p.turn(request())) deltas.push(d);
    })().catch((e: unknown) => e as ProviderError);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).failure).toBe('connection');
    expect((err as ProviderError).message).toMatch(
      new RegExp(
        `cannot reach the model service at http://127.0.0.1:${port}/v1: connection refused \\(ECONNREFUSED\\)`,
      ),
    );
    expect((err as ProviderError).message).not.toMatch(/busy/);
    expect(deltas).toEqual([
      expect.objectContaining({
        type: 'retry',
        attempt: 1,
        reason: expect.stringMatching(/connection refused/),
      }),
    ]);
  });

  it("the service's own error text stays in `detail`, scrubbed of anything like a key", async () => {
    stub.reply({
      kind: 'status',
      status: 500,
      body: {
        error: {
          message: 'InternalError.Algo: upstream shard 7 overloaded (key sk-live-abcdef123456)',
          type: 'x',
        },
      },
    });
    const err = await failure(openai());
    expect(err.message).toBe('openai:stub-model: the model service answered HTTP 500');
    expect(err.detail).toMatch(/InternalError\.Algo/);
    expect(err.detail).not.toMatch(/sk-live-abcdef123456/);
  });

  it('non-streaming mode asks for a whole completion and returns the same deltas', async () => {
    stub.reply({
      kind: 'json',
      body: {
        id: 'x',
        object: 'chat.completion',
        created: 0,
        model: 'stub-model',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: 'Looking.',
              tool_calls: [
                {
                  id: 'c9',
                  type: 'function',
                  function: { name: 'customer_lookup', arguments: '{"name":"Acme"}' },
                },
              ],
            },
          },
        ],
        usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 },
      },
    });
    const deltas = await collect(openai({ ...FAST, stream: false }));
    expect(stub.requests[0]!.body.stream).toBe(false);
    expect(deltas).toEqual([
      { type: 'text_delta', text: 'Looking.' },
      {
        type: 'message',
        message: {
          text: 'Looking.',
          toolCalls: [{ id: 'c9', name: 'customer_lookup', arguments: { name: 'Acme' } }],
          finishReason: 'tool_calls',
        },
        usage: { inputTokens: 9, outputTokens: 4 },
      },
    ]);
  });

  it('a server that repeats the function name in every fragment yields the name once (as the client’s stream helper does)', async () => {
    stub.reply({
      kind: 'stream',
      chunks: [
        toolCallChunk(0, { id: 'call_1', name: 'customer_lookup', arguments: '{"name"' }),
        toolCallChunk(0, { name: 'customer_lookup', arguments: ':"Ac' }),
        toolCallChunk(0, { id: 'call_1', name: 'customer_lookup', arguments: 'me"}' }, 'tool_calls'),
      ],
    });
    const msg = (await collect(openai())).at(-1);
    expect(msg).toMatchObject({
      type: 'message',
      message: { toolCalls: [{ id: 'call_1', name: 'customer_lookup', arguments: { name: 'Acme' } }] },
    });
  });

  it('the turn’s abort while waiting for headers is an interrupt, not a timeout', async () => {
    stub.reply({ kind: 'hang' });
    const ac = new AbortController();
    const p = collect(openai({ ...FAST, requestTimeoutMs: 60_000 }), request(ac.signal));
    await new Promise((r) => setTimeout(r, 50));
    ac.abort();
    await expect(p).rejects.toBeInstanceOf(InterruptedError);
    await stub.clientClosed;
  });
});

describe('Anthropic Messages API behind the same interface', () => {
  let stub: MessagesApiStub;
  let baseURL: string;
  beforeEach(async () => {
    stub = new MessagesApiStub();
    baseURL = await stub.start();
  });
  afterEach(async () => {
    await stub.stop();
  });
  const anthropic = (service: object = FAST) =>
    new AnthropicMessagesProvider({ model: 'claude-stub', baseURL, apiKey: 'sk-ant-test', service });

  it('streams text and tool_use blocks over SSE; the history goes out as Messages API turns', async () => {
    stub.reply({
      kind: 'events',
      events: messageEvents({
        text: ['Let me ', 'check.'],
        tools: [{ id: 'toolu_1', name: 'customer_lookup', json: ['{"na', 'me": "Ac', 'me"}'] }],
      }),
    });
    const deltas = await collect(anthropic());
    expect(deltas.filter((d) => d.type === 'text_delta').map((d) => (d as { text: string }).text)).toEqual([
      'Let me ',
      'check.',
    ]);
    expect(deltas.at(-1)).toEqual({
      type: 'message',
      message: {
        text: 'Let me check.',
        toolCalls: [{ id: 'toolu_1', name: 'customer_lookup', arguments: { name: 'Acme' } }],
        finishReason: 'tool_use',
      },
      usage: { inputTokens: 11, outputTokens: 7 },
    });
    const sent = stub.requests[0]!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.apiKey).toBe('sk-ant-test');
    expect(sent.version).toBeTruthy();
    expect(sent.body).toMatchObject({
      model: 'claude-stub',
      stream: true,
      system: 'be brief',
      max_tokens: 4096,
      tools: [{ name: 'customer_lookup', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'look up Acme' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'customer_lookup', input: { name: 'Acme' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '{"found":1}' }] },
      ],
    });
  });

  it('non-streaming: a whole message', async () => {
    stub.reply({
      kind: 'message',
      body: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-stub',
        content: [
          { type: 'text', text: 'Done.' },
          { type: 'tool_use', id: 'toolu_9', name: 'customer_lookup', input: { name: 'Globex' } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 3 },
      },
    });
    const deltas = await collect(anthropic({ ...FAST, stream: false }));
    expect(stub.requests[0]!.body.stream).toBe(false);
    expect(deltas.at(-1)).toEqual({
      type: 'message',
      message: {
        text: 'Done.',
        toolCalls: [{ id: 'toolu_9', name: 'customer_lookup', arguments: { name: 'Globex' } }],
        finishReason: 'tool_use',
      },
      usage: { inputTokens: 5, outputTokens: 3 },
    });
  });

  it('the same timeouts, retries and error words as the OpenAI family', async () => {
    stub.reply(
      { kind: 'status', status: 529, message: 'Overloaded' },
      { kind: 'events', events: messageEvents({ text: ['ok'] }) },
    );
    const retried = await collect(
      new AnthropicMessagesProvider({
        model: 'claude-stub',
        baseURL,
        apiKey: 'k',
        service: FAST,
        retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5 },
      }),
    );
    expect(retried[0]).toMatchObject({
      type: 'retry',
      status: 529,
      reason: expect.stringMatching(/HTTP 529/),
    });
    expect(retried.at(-1)).toMatchObject({ type: 'message', message: { text: 'ok' } });

    stub.reply({ kind: 'hang' });
    expect((await failure(anthropic(HUNG))).failure).toBe('timeout');

    stub.reply({ kind: 'events', events: messageEvents({ text: ['par'] }).slice(0, 3), hold: true });
    expect((await failure(anthropic(HUNG))).failure).toBe('stream_idle');

    stub.reply({ kind: 'status', status: 400, message: 'messages: roles must alternate' });
    const bad = await failure(anthropic());
    expect(bad.message).toBe('anthropic:claude-stub: the model service answered HTTP 400');
    expect(bad.detail).toMatch(/roles must alternate/);
  });

  it('createProvider builds it from anthropic:MODEL with ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY', async () => {
    stub.reply({ kind: 'events', events: messageEvents({ text: ['hi'] }) });
    const p = createProvider('anthropic:claude-stub', {
      ANTHROPIC_BASE_URL: baseURL,
      ANTHROPIC_API_KEY: 'sk-ant-env',
    });
    expect(p.kind).toBe('anthropic');
    expect((await collect(p)).at(-1)).toMatchObject({ message: { text: 'hi' } });
    expect(stub.requests[0]!.apiKey).toBe('sk-ant-env');
  });
});

import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { stripWatermark } from '../../src/gates/index.js';
import { createPlatform, type Platform } from '../../src/platform/index.js';
import { createLogger } from '../../src/telemetry/index.js';
import { ChatCompletionsStub, textChunk, toolCallChunk } from '../agent/support/chat-completions-stub.js';
import { officeTempConfig } from '../support/office-temp.js';

/** A model service that misbehaves, behind the whole platform: every request must still get an answer. */
let stub: ChatCompletionsStub;
let office: ReturnType<typeof officeTempConfig>;
let platform: Platform;
const logged: Record<string, unknown>[] = [];

beforeAll(async () => {
  stub = new ChatCompletionsStub();
  const baseURL = await stub.start();
  // timeouts short enough that a hung model is abandoned soon, long enough that an answering stub
  // on a loaded machine never meets them; the assertions never look at the clock
  office = officeTempConfig({
    extra: 'model: { requestTimeoutMs: 2500, streamIdleTimeoutMs: 2500, maxRetries: 0 }',
  });
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logged.push(JSON.parse(line));
      done();
    },
  });
  platform = await createPlatform(loadConfig(office.configFile), {
    model: 'openai:stub-model',
    env: {
      ...process.env,
      OPENAI_BASE_URL: baseURL,
      OPENAI_API_KEY: 'sk-test-key-0000',
      TWINLINE_DATABASE_URL: '',
    },
    logger: await createLogger({ level: 'debug', destination: sink }),
  });
});

afterAll(async () => {
  await platform?.close();
  await stub?.stop();
  office?.cleanup();
});

const bob = () => platform.runtime.identities.resolve('bob', 'acme');

describe('the model service failing behind the platform: the degraded path, with a ticket', () => {
  it('a model that hangs: a retrieval answer and a ticket, not a failure and not silence', async () => {
    stub.reply({ kind: 'hang' });
    const r = await platform.handle(bob(), '查一下华东区的客户名单');
    expect(r.route.target).toBe('quick');
    expect(r.outcome).toBe('degraded');
    expect(r.ticketId).toBeTruthy();
    const text = stripWatermark(r.text);
    expect(text).toMatch(/degraded mode \(the model service did not answer in time\)/);
    expect(text).toContain(r.ticketId!);
    // the operator's ticket says what happened, in our words
    const ticket = await platform.store.forTenant('acme').tickets.get(r.ticketId!);
    expect(ticket?.reason).toMatch(/did not respond within 2500 ms/);
  });

  it("a 500 with the provider's internals: the user gets a plain sentence, the ticket and the log the details", async () => {
    stub.reply({
      kind: 'status',
      status: 500,
      body: { error: { message: 'InternalError.Algo.InvalidParameter: shard 7 panicked', type: 'x' } },
    });
    const r = await platform.handle(bob(), '查一下华东区的客户名单');
    expect(r.outcome).toBe('degraded');
    const text = stripWatermark(r.text);
    expect(text).toMatch(/the model service returned an error/);
    // the ticket id is a random UUID and may itself hold "500"
    expect(text.replace(r.ticketId!, '<ticket>')).not.toMatch(/InternalError|shard|500/);
    const ticket = await platform.store.forTenant('acme').tickets.get(r.ticketId!);
    expect(ticket?.reason).toMatch(/InternalError\.Algo/);
    const warn = logged.find(
      (l) => l.msg === 'model service failed; answered on the degraded path' && l.requestId === r.requestId,
    );
    expect(warn).toMatchObject({ tenant: 'acme', line: 'quick', failure: 'http' });
    expect(String(warn?.detail)).toMatch(/InternalError\.Algo/);
  });

  it('a model that calls a tool and then goes silent: what ran is said, not denied', async () => {
    stub.reply(
      {
        kind: 'stream',
        chunks: [
          toolCallChunk(
            0,
            { id: 'c1', name: 'customer_lookup', arguments: '{"region":"east"}' },
            'tool_calls',
          ),
        ],
      },
      { kind: 'stream', chunks: [textChunk('Here are')], hold: true },
    );
    const r = await platform.handle(bob(), '查一下华东区的客户名单');
    expect(r.outcome).toBe('degraded');
    expect(r.executed).toEqual(['customer_lookup']);
    expect(stripWatermark(r.text)).toMatch(/Before the model service failed, these ran: customer_lookup\./);
    expect(stripWatermark(r.text)).not.toMatch(/did not take any action/);
  });

  it('the deep line: a planner the service cannot serve ends on the degraded path too', async () => {
    stub.reply({ kind: 'hang' });
    const carol = platform.runtime.identities.resolve('carol', 'acme');
    const r = await platform.handle(carol, '分析 atlas 项目的账单并生成报告', { waitForDeep: true });
    expect(r.route.target).toBe('deep');
    expect(r.outcome).toBe('degraded');
    expect(r.ticketId).toBeTruthy();
    const task = await platform.store.forTenant('acme').tasks.getTask(r.taskId!);
    expect(task?.status).toBe('degraded');
  });

  it('logs one structured line per request and per decision: ids, tenant, route, decision, latency; never text or arguments', async () => {
    stub.reply(
      {
        kind: 'stream',
        chunks: [
          toolCallChunk(
            0,
            { id: 'c2', name: 'customer_lookup', arguments: '{"region":"east"}' },
            'tool_calls',
          ),
        ],
      },
      { kind: 'stream', chunks: [textChunk('East: Acme.', 'stop')] },
    );
    const before = stub.requests.length;
    const r = await platform.handle(bob(), '查一下华东区的客户名单');
    expect(r.outcome).toBe('completed');
    // the quick line's system prompt is the domain's (prompts.quick in the office config), not code's
    const system = (stub.requests[before]!.body.messages as { role: string; content: string }[])[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/^You are an office assistant for short tasks/);
    const line = logged.find((l) => l.msg === 'request' && l.requestId === r.requestId);
    expect(line).toMatchObject({
      level: 30,
      service: 'twinline',
      tenant: 'acme',
      user: 'bob',
      route: 'quick',
      rule: 'quick.zh.lookup',
      outcome: 'completed',
      executed: 1,
    });
    expect(typeof line?.latencyMs).toBe('number');
    const decision = logged.find(
      (l) => l.msg === 'decision' && l.tool === 'customer_lookup' && l.decision === 'executed',
    );
    expect(decision).toMatchObject({
      tenant: 'acme',
      line: 'quick',
      stage: expect.any(String),
      rule: expect.any(String),
    });
    const all = JSON.stringify(logged);
    for (const secret of ['华东区', 'East: Acme', '"region"', 'sk-test-key-0000'])
      expect(all).not.toContain(secret);
  });
});

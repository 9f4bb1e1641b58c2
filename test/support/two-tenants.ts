import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningServer, startServer } from '../../src/server/index.js';
import type { ToolSpec } from '../../src/tools/index.js';
import { officeTempConfig } from './office-temp.js';

/**
 * Two tenants on one real `twinline serve` (the office domain, SQLite, loopback), for the
 * isolation load test and its bench. One scripted model serves both lines: the quick line drafts
 * a renewal for "Acme Client Hailan Logistics" — alice's customer in acme, a name that does not
 * exist in globex, so every globex draft fails on its arguments — and the deep line's plan runs
 * one `doc_search`, which takes `slowMs` for globex (its expensive queries) and no time for acme.
 */
export const CUSTOMER = 'Acme Client Hailan Logistics';
export const QUICK_QUERY = '帮我给客户海澜物流写一封续约提醒邮件草稿';
export const DEEP_QUERY = '分析知识库里的差旅政策文档并生成一份对比报告';
export const key = (tenant: string, user: string) => `tw-${tenant}-${user}-demo`;

export interface TwoTenantServer {
  readonly server: RunningServer;
  readonly url: string;
  close(): Promise<void>;
}

export async function startTwoTenantServer(options: { slowMs: number }): Promise<TwoTenantServer> {
  const office = officeTempConfig();
  const script = join(office.dir, 'model.json');
  const plan = {
    goal: 'compare the travel policy documents',
    steps: [
      { goal: 'find the documents', tool: 'doc_search', args: { query: 'travel policy' }, expected: 'docs' },
    ],
  };
  writeFileSync(
    script,
    JSON.stringify({
      turns: [
        {
          text: JSON.stringify(plan),
          tool_calls: [{ name: 'renewal_message_draft', arguments: { customer: CUSTOMER } }],
        },
        { text: 'Draft ready.' },
      ],
    }),
  );
  const slowFor = (tool: ToolSpec): ToolSpec =>
    tool.name !== 'doc_search'
      ? tool
      : {
          ...tool,
          async execute(args, ctx) {
            if (ctx.identity.tenant === 'globex') await new Promise((r) => setTimeout(r, options.slowMs));
            return tool.execute(args, ctx);
          },
        };
  const server = await startServer({
    port: 0,
    config: office.configFile,
    model: `scripted:${script}`,
    env: {
      ...process.env,
      TWINLINE_DATABASE_URL: '',
      TWINLINE_REDIS_URL: '',
      TWINLINE_NATS_URL: '',
      TWINLINE_QUICK_QPS: '100000',
      TWINLINE_SWEEP_MS: '60000',
    },
    log: () => {},
    platform: { wrapTool: slowFor },
  });
  return {
    server,
    url: server.url,
    async close() {
      await server.close();
      office.cleanup();
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field.
export type Body = Record<string, any>;

export async function post(
  url: string,
  who: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${who}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

export async function get(url: string, who: string, path: string): Promise<Body> {
  return (await (
    await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${who}` } })
  ).json()) as Body;
}

/** `n` quick requests from `users` (round robin), `concurrency` at a time; latency of each in ms. */
export async function quickBurst(
  url: string,
  users: readonly string[],
  n: number,
  concurrency: number,
): Promise<{ latencies: number[]; results: Body[] }> {
  const latencies: number[] = [];
  const results: Body[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      const t = performance.now();
      const r = await post(url, users[i % users.length]!, '/v1/requests', { query: QUICK_QUERY });
      latencies.push(performance.now() - t);
      results.push({ status: r.status, ...r.body });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, results };
}

export function percentile(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
}

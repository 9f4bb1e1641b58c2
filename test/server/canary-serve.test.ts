import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanaryService } from '../../src/rollout/index.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { officeTempConfig } from '../support/office-temp.js';

let server: RunningServer;
let office: ReturnType<typeof officeTempConfig>;
let store: Store;

beforeAll(async () => {
  office = officeTempConfig();
  server = await startServer({
    port: 0,
    config: office.configFile,
    model: `scripted:${resolve('examples/office/models/quick-customers.json')}`,
    env: {
      ...process.env,
      TWINLINE_DATABASE_URL: '',
      TWINLINE_REDIS_URL: '',
      TWINLINE_CANARY_REFRESH_MS: '100',
    },
    log: () => {},
  });
  store = await openStore({ sqliteFile: join(office.dir, 'twinline.sqlite') });
});

afterAll(async () => {
  await store?.close();
  await server?.close();
  office?.cleanup();
});

async function ask(key: string) {
  const res = await fetch(`${server.url}/v1/requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '查一下华东区的客户名单' }),
  });
  return (await res.json()) as { outcome: string; executed: string[]; configVersion?: string };
}

const settle = () => new Promise((r) => setTimeout(r, 400));

describe('serve follows canary roll-outs', () => {
  it('users in the canary get the new config version; a rollback sends every user back', async () => {
    // v2 takes customer_lookup off the quick line: a visible, deliberately different policy.
    // It sits beside the first config, so it shares auth.yaml and reviewers.yaml.
    const v2 = join(office.dir, 'v2.config.yaml');
    writeFileSync(v2, readFileSync(office.configFile, 'utf8').replace(/\n\s*customer_lookup,/, ''));
    const before = await ask('tw-acme-bob-demo');
    expect(before.executed).toEqual(['customer_lookup']);
    expect(before.configVersion).toBeUndefined();

    const canary = new CanaryService(store);
    await canary.start({ version: 'v2', config: v2, percent: 100 });
    await settle();
    const during = await ask('tw-acme-bob-demo');
    expect(during.configVersion).toBe('v2');
    expect(during.executed).toEqual([]);
    expect(during.outcome).toBe('denied');

    await canary.rollback('test');
    await settle();
    const after = await ask('tw-acme-bob-demo');
    expect(after.configVersion).toBeUndefined();
    expect(after.executed).toEqual(['customer_lookup']);
  });
});

import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { officeTempConfig } from '../support/office-temp.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(
    `[skip] ${CHROMIUM} not found — web console end-to-end test skipped (apt-get install chromium)`,
  );

let server: RunningServer;
let office: ReturnType<typeof officeTempConfig>;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!hasChromium) return;
  office = officeTempConfig();
  const plan = {
    goal: 'Billing report of project atlas',
    capabilities: ['billing_report_query'],
    steps: [
      { goal: 'Find the billing policy', tool: 'doc_search', args: { query: 'billing' } },
      {
        goal: 'Atlas billing for November',
        tool: 'billing_report_query',
        args: { period: '2026-11', project: 'atlas' },
      },
      { goal: 'Billing policy again', tool: 'doc_search', args: { query: 'invoice' } },
    ],
  };
  const script = join(office.dir, 'deep.json');
  writeFileSync(
    script,
    JSON.stringify([{ text: JSON.stringify(plan) }, { text: 'Atlas billing reported.' }]),
  );
  server = await startServer({
    port: 0,
    config: office.configFile,
    model: `scripted:${script}`,
    env: { ...process.env, TWINLINE_DATABASE_URL: '', TWINLINE_REDIS_URL: '' },
    log: () => {},
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  office?.cleanup();
});

describe('web console in headless Chromium', () => {
  it('a reviewer logs in, approves a pending high-risk call, watches the task finish, finds the audit record', async (ctx) => {
    if (!browser) return ctx.skip();
    const submitted = await fetch(`${server.url}/v1/requests`, {
      method: 'POST',
      headers: { authorization: 'Bearer tw-acme-carol-demo', 'content-type': 'application/json' },
      body: JSON.stringify({ query: '分析 atlas 项目的账单并生成报告' }),
    });
    const { taskId } = (await submitted.json()) as { taskId: string };

    const page = await browser.newPage();
    await page.goto(`${server.url}/console/`);
    await page.fill('#api-key', 'tw-acme-rita-demo');
    await page.click('#login-button');
    await page.waitForSelector('#who:has-text("acme/rita")');

    // The parked call appears with its arguments, requester and decision path.
    const row = page.locator('#reviews-table tr', { hasText: 'billing_report_query' });
    await row.waitFor({ timeout: 15_000 });
    await expect(row.textContent()).resolves.toContain('acme/carol');
    await expect(row.textContent()).resolves.toContain('atlas');
    await expect(row.textContent()).resolves.toContain('review:review');
    await row.locator('button[data-action="approve"]').click();
    await page
      .locator('#reviews-table tr', { hasText: 'billing_report_query' })
      .locator('td.status-executed')
      .waitFor();

    // The task continues after the approval: its live step view reaches completion.
    await page.click('button[data-view="tasks"]');
    await page.locator(`#tasks-table tr[data-task-id="${taskId}"]`).click();
    await page.locator('#task-detail h3', { hasText: 'completed' }).waitFor({ timeout: 15_000 });
    const steps = await page.locator('#steps-table tr td:nth-child(2)').allTextContents();
    expect(steps).toEqual(['done', 'done', 'done']);

    // And the executed call is in the audit.
    await server.platform.store.audit.flush();
    await page.click('button[data-view="audit"]');
    await page.fill('#audit-form input[name="tool"]', 'billing_report_query');
    await page.click('#audit-search');
    const auditRow = page.locator('#audit-table tbody tr', { hasText: 'executed' });
    await auditRow.first().waitFor();
    await expect(auditRow.first().textContent()).resolves.toContain('carol');
    await page.screenshot({ path: join(office.dir, 'console.png') });
    await page.close();
  }, 60_000);
});

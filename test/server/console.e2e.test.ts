/// <reference lib="dom" />
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripWatermark } from '../../src/gates/index.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { officeTempConfig } from '../support/office-temp.js';
import { REVIEW_BAND_MARKER, REVIEW_BAND_REQUEST } from '../support/review-band.js';
import { hasChromium, launchChromium } from './console-browser.js';

// The console driven as its three kinds of user would, in Debian's headless Chromium against a
// real `twinline serve`: a reviewer (rita) decides parked calls and follows them to the audit and
// the task; an auditor (audrey) reads everything and can decide nothing; an employee (alice) sees
// only her own records. Every button and link of each flow is clicked.

let server: RunningServer;
let office: ReturnType<typeof officeTempConfig>;
let browser: Browser | undefined;
const tasks: string[] = [];

const KEY = (user: string) => `tw-acme-${user}-demo`;

async function post(user: string, query: string) {
  const res = await fetch(`${server.url}/v1/requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY(user)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return (await res.json()) as { taskId?: string; outcome: string; reviewId?: string };
}

async function until<T>(fn: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function pendingReviews(): Promise<number> {
  return (await server.platform.store.forTenant('acme').reviews.pendingSummary()).pending;
}

async function login(user: string, width = 1280): Promise<Page> {
  const context = await browser!.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(`${server.url}/console/`);
  await page.fill('#api-key', KEY(user));
  await page.click('#login-button');
  await page.waitForSelector(`#who:has-text("acme/${user}")`);
  return page;
}

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
    env: { ...process.env, TWINLINE_DATABASE_URL: '', TWINLINE_REDIS_URL: '', OTEL_TRACES_EXPORTER: 'none' },
    log: () => {},
  });
  // Two deep tasks of carol's, each parked on its billing report; an injection attempt of alice's.
  for (let i = 0; i < 2; i++) {
    const r = await post('carol', '分析 atlas 项目的账单并生成报告');
    tasks.push(r.taskId!);
    await until(async () => ((await pendingReviews()) === i + 1 ? true : undefined));
  }
  const flagged = await post('alice', `${REVIEW_BAND_REQUEST} for this week`);
  expect(flagged.outcome).toBe('review');
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  office?.cleanup();
});

describe('the console as a reviewer (rita)', () => {
  it('sees each review with its request, task, requester, age and expiry; denies with a required note; approves', async (ctx) => {
    if (!browser) return ctx.skip();
    const page = await login('rita');
    expect(await page.locator('.tab.active').textContent()).toBe('Reviews');
    const rows = page.locator('#reviews-table tbody tr', { hasText: 'billing_report_query' });
    await rows.nth(1).waitFor();
    const first = rows.first();
    const text = (await first.textContent()) ?? '';
    expect(text).toContain('carol');
    expect(text).toContain('finance_analyst · L3');
    expect(text).toContain('atlas');
    expect(text).toMatch(/\d+ s old|\d+ min old/);
    expect(text).toMatch(/expires in 23 h/);
    expect(text).toContain('review.required');
    expect(text).toMatch(/task [0-9a-f]{8}/);
    // The flagged input shows the request that was stopped.
    await expect(
      page.locator('#reviews-table tbody tr', { hasText: 'twinline.input' }).textContent(),
    ).resolves.toContain(REVIEW_BAND_MARKER);

    // Deny: the confirm button stays disabled until a note is written.
    const denyRow = page.locator(`#reviews-table tbody tr`, { hasText: 'billing_report_query' }).nth(1);
    const denyId = await denyRow.getAttribute('data-review-id');
    await denyRow.locator('button[data-action="deny"]').click();
    const confirm = denyRow.locator('button[data-action="confirm-deny"]');
    expect(await confirm.isDisabled()).toBe(true);
    await denyRow.locator('button[data-action="cancel"]').click();
    await page.locator(`tr[data-review-id="${denyId}"] button[data-action="deny"]`).click();
    await page
      .locator(`tr[data-review-id="${denyId}"] textarea`)
      .fill('Atlas billing needs the owner to ask');
    await page.locator(`tr[data-review-id="${denyId}"] button[data-action="confirm-deny"]`).click();
    const denied = page.locator(`tr[data-review-id="${denyId}"]`);
    await denied.locator('.badge.status-denied').waitFor();
    expect(await denied.textContent()).toContain('by rita');
    expect(await denied.textContent()).toContain('“Atlas billing needs the owner to ask”');
    expect(await page.locator('#status').textContent()).toContain('denied');

    // Approve the other: it runs and says who decided.
    const approveRow = page.locator('#reviews-table tbody tr', { hasText: 'billing_report_query' }).filter({
      has: page.locator('button[data-action="approve"]'),
    });
    const approveId = await approveRow.getAttribute('data-review-id');
    await approveRow.locator('button[data-action="approve"]').click();
    const approved = page.locator(`tr[data-review-id="${approveId}"]`);
    await approved.locator('.badge.status-executed').waitFor();
    expect(await approved.textContent()).toContain('by rita');
    await page.click('#reviews-refresh');
    await page.locator(`tr[data-review-id="${approveId}"] .badge.status-executed`).waitFor();

    // One click from the review to the audit of that call: the queued record and the run.
    await server.platform.store.audit.flush();
    await approved.locator('button[data-action="audit"]').click();
    await page.locator('#view-audit').waitFor();
    expect(await page.locator('#audit-scope').textContent()).toContain(`review ${approveId!.slice(0, 8)}`);
    const records = page.locator('#audit-table tbody tr[data-audit-id]');
    await until(async () => ((await records.count()) === 2 ? true : undefined));
    expect(await records.allTextContents()).toEqual([
      expect.stringContaining('executed'),
      expect.stringContaining('review'),
    ]);
    // The executed call is decided by the reviewer's approval, not by the last stage it passed.
    expect(await records.first().locator('.decided-by').textContent()).toBe('review · review.approved');
    expect(await records.first().locator('td.num').textContent()).toMatch(/^\d+(\.\d{1,2})?$/);

    // Expand: the whole decision path with every reason, and the arguments at rita's level.
    await records.first().locator('button.expand').click();
    const detail = page.locator('#audit-table tr.detail-row:not([hidden])');
    const shown = (await detail.textContent()) ?? '';
    expect(shown).toContain('Allowed by review · review.approved: approved by rita');
    expect(shown).toContain('access');
    expect(shown).toContain('policy');
    expect(shown).toContain('Circuit closed.');
    expect(shown).toContain('"project": "atlas"');
    expect(shown).toContain('Arguments (as level L3 may see them)');
    // Why? renders the explanation as `twinline check --explain` does, and closes with Escape.
    await detail.locator('button[data-action="why"]').click();
    await page.locator('#explain-panel:not([hidden])').waitFor();
    const why = (await page.locator('#explain-text').textContent()) ?? '';
    expect(why).toContain('acme/carol -> billing_report_query: EXECUTED');
    expect(why).toContain('decided by: review (review.approved)');
    expect(why).toMatch(/decided again now: REVIEW by review \(review.required\)/);
    expect(why).toContain('profile: check(serve.deep)');
    await page.keyboard.press('Escape');
    expect(await page.locator('#explain-panel').isHidden()).toBe(true);
    await detail.locator('button[data-action="why"]').click();
    await page.click('#explain-close');
    expect(await page.locator('#explain-panel').isHidden()).toBe(true);

    // Open its task: the live timeline reaches the end and the gated answer appears.
    await detail.getByRole('button', { name: 'Open its task' }).click();
    await page.locator('#task-detail h3 .badge.status-completed').waitFor({ timeout: 20_000 });
    expect(await page.locator('#task-timeline li .badge').allTextContents()).toEqual([
      'done',
      'done',
      'done',
    ]);
    // Gated: the answer carries the session's watermark.
    const answer = (await page.locator('#task-answer').textContent()) ?? '';
    expect(answer).not.toBe(stripWatermark(answer));
    expect(stripWatermark(answer)).toContain('Atlas billing reported.');
    expect(await page.locator('#tasks-table tbody tr.selected td:nth-child(2)').textContent()).toBe('carol');
    // Raw output on demand, redacted for rita's level.
    await page.locator('#task-timeline li[data-step="1"] button[data-action="raw"]').click();
    await page.locator('#task-timeline li[data-step="1"] .raw pre').waitFor();
    expect(await page.locator('#task-timeline li[data-step="1"] .raw').textContent()).toContain(
      'Raw output at level L3',
    );
    await page.getByRole('button', { name: 'Audit of this task' }).click();
    await page.locator('#audit-table tbody tr[data-audit-id]').first().waitFor();
    expect(await page.locator('#audit-scope').textContent()).toContain('task');
    await page.context().close();
  }, 90_000);

  it('filters the audit by status, stage, rule and time, exports the rows as CSV and JSON, and sees the overview', async (ctx) => {
    if (!browser) return ctx.skip();
    await server.platform.store.audit.flush();
    const page = await login('rita');
    await page.click('button[data-view="audit"]');
    await page.selectOption('#audit-form select[name="status"]', 'review');
    await page.fill('#audit-form input[name="stage"]', 'input');
    await search(page, { status: 'review', stage: 'input' });
    const rows = page.locator('#audit-table tbody tr[data-audit-id]');
    await until(async () => ((await rows.count()) === 1 ? true : undefined));
    expect(await rows.first().textContent()).toContain('twinline.input');
    expect(await rows.first().textContent()).toContain('alice');
    await page.click('#audit-reset');
    await page.fill('#audit-form input[name="rule"]', 'review.required');
    await page.fill(
      '#audit-form input[name="since"]',
      new Date(Date.now() - 3600_000).toISOString().slice(0, 16),
    );
    await page.fill(
      '#audit-form input[name="until"]',
      new Date(Date.now() + 3600_000).toISOString().slice(0, 16),
    );
    await search(page, { rule: 'review.required' });
    await until(async () => ((await rows.count()) === 2 ? true : undefined));
    for (const t of await rows.allTextContents()) expect(t).toContain('review · review.required');

    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#audit-export-csv')]);
    expect(csv.suggestedFilename()).toMatch(/^twinline-audit-.*\.csv$/);
    const csvText = await readDownload(csv);
    const lines = csvText.trim().split('\r\n');
    expect(lines[0]).toMatch(/^time,id,user,agent,domain,tool,status,decided_stage,decided_rule/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('review.required');
    const [json] = await Promise.all([page.waitForEvent('download'), page.click('#audit-export-json')]);
    const exported = JSON.parse(await readDownload(json)) as { records: { decidedBy: { ruleId: string } }[] };
    expect(exported.records.map((r) => r.decidedBy.ruleId)).toEqual(['review.required', 'review.required']);

    await page.click('button[data-view="overview"]');
    await page.locator('#plot-decisions svg rect').first().waitFor();
    expect(await page.locator('#plot-latency svg').count()).toBe(1);
    expect(await page.locator('#plot-breakers li').allTextContents()).toEqual(
      expect.arrayContaining(['doc_search: closed']),
    );
    await page.click('#overview-refresh');
    await page.click('button[data-view="routing"]');
    await page.fill('#route-form input[name="query"]', 'show my calendar for this week');
    await page.click('#route-form button[type="submit"]');
    await page.locator('#routing-table tbody tr').first().waitFor();
    await page.click('#logout');
    await page.locator('#login-view:not([hidden])').waitFor();
    await page.context().close();
  }, 60_000);
});

describe('the console as an auditor (audrey)', () => {
  it('reads every review, task and record of the tenant and is offered no decision', async (ctx) => {
    if (!browser) return ctx.skip();
    await server.platform.store.audit.flush();
    const page = await login('audrey');
    expect(await page.locator('.tab.active').textContent()).toBe('Overview');
    await page.click('button[data-view="reviews"]');
    await page.locator('#reviews-table tbody tr').first().waitFor();
    expect(await page.locator('#reviews-table tbody tr').count()).toBe(3);
    expect(await page.locator('#reviews-table button[data-action="approve"]').count()).toBe(0);
    expect(await page.locator('#reviews-table button[data-action="deny"]').count()).toBe(0);
    // Her credential could not decide either.
    const refused = await page.evaluate(
      async (id) => {
        const r = await fetch(`/v1/reviews/${id}/approve`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${sessionStorage.getItem('twinline.apiKey')}`,
            'content-type': 'application/json',
          },
          body: '{}',
        });
        return r.status;
      },
      await page.locator('#reviews-table tbody tr').first().getAttribute('data-review-id'),
    );
    expect(refused).toBe(403);

    await page.click('button[data-view="tasks"]');
    await page.locator('#tasks-table tbody tr').nth(1).waitFor();
    expect(await page.locator('#tasks-table tbody tr td:nth-child(2)').allTextContents()).toEqual([
      'carol',
      'carol',
    ]);
    await page.click('#tasks-refresh');
    await page.locator('#tasks-table tbody tr button[data-action="open"]').first().click();
    await page.locator('#task-detail h3').waitFor();

    await page.click('button[data-view="audit"]');
    expect(await page.locator('#audit-form input[name="user"]').isVisible()).toBe(true);
    await page.fill('#audit-form input[name="user"]', 'carol');
    await page.selectOption('#audit-form select[name="status"]', 'executed');
    await search(page, { user: 'carol', status: 'executed' });
    const rows = page.locator('#audit-table tbody tr[data-audit-id]');
    await rows.first().waitFor();
    // Each executed call says which grant allowed it.
    for (const t of await rows.allTextContents()) {
      expect(t).toContain('carol');
      expect(t).toMatch(/policy · grant\.finance_analyst|review · review\.approved/);
    }
    await rows.first().locator('button.expand').click();
    await page.locator('#audit-table tr.detail-row:not([hidden]) button[data-action="why"]').click();
    await page.locator('#explain-panel:not([hidden])').waitFor();
    await page.context().close();
  }, 60_000);
});

describe('the console as an employee (alice)', () => {
  it('sees only her own reviews, tasks and records, her blocked input among them, and no buttons to decide', async (ctx) => {
    if (!browser) return ctx.skip();
    await server.platform.store.audit.flush();
    const page = await login('alice');
    await page.click('button[data-view="reviews"]');
    await page.locator('#reviews-table tbody tr').first().waitFor();
    expect(await page.locator('#reviews-table tbody tr').count()).toBe(1);
    expect(await page.locator('#reviews-table tbody tr').textContent()).toContain('twinline.input');
    expect(
      await page
        .locator('#reviews-table button[data-action="approve"], #reviews-table button[data-action="deny"]')
        .count(),
    ).toBe(0);

    await page.click('button[data-view="tasks"]');
    expect(await page.locator('#tasks-table tbody tr').count()).toBe(0);

    await page.click('button[data-view="audit"]');
    expect(await page.locator('#audit-form input[name="user"]').isVisible()).toBe(false);
    const rows = page.locator('#audit-table tbody tr[data-audit-id]');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('twinline.input');
    expect(await rows.first().locator('.decided-by').textContent()).toBe('input · input.review');
    await rows.first().locator('button.expand').click();
    expect(await page.locator('#audit-table tr.detail-row:not([hidden])').textContent()).toContain(
      'input gate: review',
    );
    // A record of someone else's is not there for her, by id either.
    const carolRecord = (
      await server.platform.store.forTenant('acme').audit.query({ user: 'carol', limit: 1 })
    )[0]!;
    const status = await page.evaluate(async (id) => {
      const r = await fetch(`/v1/audit/${id}/explain`, {
        headers: { authorization: `Bearer ${sessionStorage.getItem('twinline.apiKey')}` },
      });
      return r.status;
    }, carolRecord.id);
    expect(status).toBe(404);
    await page.click('button[data-view="overview"]');
    await page.locator('#plot-decisions svg').waitFor();
    await page.context().close();
  }, 60_000);
});

describe('the console at 600 px and from the keyboard', () => {
  it('fits 600 px without sideways scrolling of the page, and every view is reachable with Tab and Enter', async (ctx) => {
    if (!browser) return ctx.skip();
    const page = await login('rita', 600);
    for (const view of ['overview', 'reviews', 'tasks', 'audit', 'routing']) {
      await page.click(`button[data-view="${view}"]`);
      await page.locator(`#view-${view}:not([hidden])`).waitFor();
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(wide, `${view} at 600 px`).toBeLessThanOrEqual(600);
    }
    // From the top of the page, Tab reaches the Audit tab; Enter opens it; Tab reaches a row's expander.
    await page.click('button[data-view="overview"]');
    await page.locator('header h1').click();
    let reached = false;
    for (let i = 0; i < 20 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(
        () => (document.activeElement as HTMLElement | null)?.dataset.view === 'audit',
      );
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await page.locator('#view-audit:not([hidden]) #audit-table tbody tr[data-audit-id]').first().waitFor();
    await page.locator('#audit-table button.expand').first().focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('#audit-table button.expand').first().getAttribute('aria-expanded')).toBe(
      'true',
    );
    await page.context().close();
  }, 60_000);
});

/** Runs the audit search and waits until the table shows its result (not an earlier one). */
async function search(page: Page, expect: Record<string, string>): Promise<void> {
  await page.click('#audit-search');
  const parts = Object.entries(expect).map(([k, v]) => `[data-query*="${k}=${encodeURIComponent(v)}"]`);
  await page.locator(`#audit-table${parts.join('')}`).waitFor();
}

async function readDownload(d: import('playwright-core').Download): Promise<string> {
  const stream = await d.createReadStream();
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

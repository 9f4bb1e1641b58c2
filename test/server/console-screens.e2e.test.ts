/// <reference lib="dom" />
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from './console-browser.js';
import { fixtureFor } from './console-fixtures.js';

// The console's screens compared with the screenshots committed in docs/images (which
// docs/operations.md shows). Repeatable by construction: the page and every API answer are
// served from this process (fixed data, fixed clock: console-fixtures.ts), the viewport is fixed,
// the fonts are Debian's DejaVu (the stylesheet names them), and Chromium renders without
// hinting, subpixel text or GPU. What is left — antialiasing noise — is absorbed by a tolerance:
// at most 0.5% of pixels may differ by more than 48 in a channel. `TWINLINE_UPDATE_SCREENSHOTS=1`
// writes new ones after an intended change.

const CONSOLE = resolve('console');
const SHOTS = resolve('docs/images');
const ORIGIN = 'http://twinline.test';
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const UPDATE = process.env.TWINLINE_UPDATE_SCREENSHOTS === '1';
const MAX_DIFFERENT = 0.005;
const CHANNEL_TOLERANCE = 48;

const hasFont = existsSync(FONT);
if (hasChromium && !hasFont)
  console.warn(
    `[skip] ${FONT} not found — console screenshot comparison skipped (apt-get install fonts-dejavu-core)`,
  );

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

let browser: Browser | undefined;

beforeAll(async () => {
  if (hasChromium && hasFont) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** A page whose every request is answered here: console files from disk, the API from fixtures. */
async function consolePage(width: number, height: number): Promise<Page> {
  const context = await browser!.newContext({
    viewport: { width, height },
    reducedMotion: 'reduce',
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const page = await context.newPage();
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== ORIGIN) return route.abort();
    if (url.pathname.startsWith('/console/')) {
      const rel = url.pathname.slice('/console/'.length) || 'index.html';
      const file = join(CONSOLE, rel);
      if (!file.startsWith(CONSOLE) || !existsSync(file))
        return route.fulfill({ status: 404, body: 'not found' });
      return route.fulfill({ status: 200, contentType: TYPES[extname(file)], body: readFileSync(file) });
    }
    const answer = fixtureFor(url.pathname);
    if (!answer)
      return route.fulfill({
        status: 404,
        contentType: 'application/json',
        body: '{"error":"not_found","message":"no fixture"}',
      });
    return route.fulfill({ status: 200, contentType: answer.type, body: answer.body });
  });
  await page.addInitScript(() => sessionStorage.setItem('twinline.apiKey', 'fixture'));
  await page.goto(`${ORIGIN}/console/`);
  await page.waitForSelector('#who:has-text("acme/rita")');
  // No caret blinking into a frame.
  await page.addStyleTag({ content: '* { caret-color: transparent !important; }' });
  return page;
}

/** Fraction of pixels that differ by more than the channel tolerance, computed in the browser. */
async function difference(page: Page, a: Buffer, b: Buffer): Promise<number | 'size'> {
  return page.evaluate(
    async ({ a, b, tolerance }) => {
      const load = async (b64: string) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width;
        c.height = img.height;
        const g = c.getContext('2d')!;
        g.drawImage(img, 0, 0);
        return g.getImageData(0, 0, img.width, img.height);
      };
      const [x, y] = [await load(a), await load(b)];
      if (x.width !== y.width || x.height !== y.height) return 'size' as const;
      let different = 0;
      for (let i = 0; i < x.data.length; i += 4) {
        for (let c = 0; c < 3; c++) {
          if (Math.abs(x.data[i + c]! - y.data[i + c]!) > tolerance) {
            different++;
            break;
          }
        }
      }
      return different / (x.width * x.height);
    },
    { a: a.toString('base64'), b: b.toString('base64'), tolerance: CHANNEL_TOLERANCE },
  );
}

async function expectScreen(page: Page, name: string): Promise<void> {
  const actual = await page.screenshot({ fullPage: true, animations: 'disabled' });
  const file = join(SHOTS, `${name}.png`);
  if (UPDATE) {
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  const keep = join(tmpdir(), `twinline-console-${name}-${process.pid}.png`);
  if (!existsSync(file)) {
    writeFileSync(keep, actual);
    throw new Error(
      `no committed screenshot ${file}; this run's is ${keep} (TWINLINE_UPDATE_SCREENSHOTS=1 writes it)`,
    );
  }
  const diff = await difference(page, readFileSync(file), actual);
  if (diff === 'size' || diff > MAX_DIFFERENT) {
    writeFileSync(keep, actual);
    throw new Error(
      `${name}: ${diff === 'size' ? 'the size changed' : `${(diff * 100).toFixed(2)}% of pixels differ`} from ${file}; this run's is ${keep}`,
    );
  }
}

describe('console screens match the committed screenshots', () => {
  it('overview at 1280 px: decisions over time, top denying rules, latency per line, queue, breakers', async (ctx) => {
    if (!browser) return ctx.skip();
    const page = await consolePage(1280, 900);
    await page.click('button[data-view="overview"]');
    await page.locator('#plot-breakers li').first().waitFor();
    await expectScreen(page, 'console-overview');
    await page.context().close();
  });

  it('reviews at 1280 px: request, task, requester, age, expiry, who decided (a rule, a person with a note)', async (ctx) => {
    if (!browser) return ctx.skip();
    const page = await consolePage(1280, 900);
    await page.locator('#reviews-table tbody tr').nth(2).waitFor();
    await expectScreen(page, 'console-reviews');
    await page.context().close();
  });

  it('audit at 1280 px: a row opened to its decision path, and its "why?"', async (ctx) => {
    if (!browser) return ctx.skip();
    const page = await consolePage(1280, 900);
    await page.click('button[data-view="audit"]');
    const row = page.locator('#audit-table tbody tr[data-audit-id]').nth(3);
    await row.locator('button.expand').click();
    await page.locator('#audit-table tr.detail-row:not([hidden]) button[data-action="why"]').click();
    await page.locator('#explain-panel:not([hidden])').waitFor();
    await page.locator('#explain-close').blur();
    await expectScreen(page, 'console-audit');
    await page.context().close();
  });

  it('tasks at 1280 px: the step timeline and the answer', async (ctx) => {
    if (!browser) return ctx.skip();
    const page = await consolePage(1280, 900);
    await page.click('button[data-view="tasks"]');
    await page.locator('#tasks-table tbody tr button[data-action="open"]').first().click();
    await page.locator('#task-answer .answer').waitFor();
    await expectScreen(page, 'console-tasks');
    await page.context().close();
  });

  it('reviews at 600 px', async (ctx) => {
    if (!browser) return ctx.skip();
    const page = await consolePage(600, 900);
    await page.locator('#reviews-table tbody tr').nth(2).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(600);
    await expectScreen(page, 'console-reviews-600');
    await page.context().close();
  });
});

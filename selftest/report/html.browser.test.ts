/**
 * Opens report.html in a real headless Chromium (playwright-core; Debian's /usr/bin/chromium where
 * installed, else the one the @sparticuz/chromium devDependency ships, see selftest/support/chromium.ts):
 * no network, matrix visible with the right counts, failures expand, works without JS,
 * and a screenshot to .selftest/report-screenshot.png for a human look.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countOutcomes, groupBySection, OUTCOMES } from '../../src/report/grouping.ts';
import { renderHtml } from '../../src/report/html.ts';
import { CHROMIUM_ARGS, findChromium } from '../support/chromium.ts';
import { makeReport } from './fixture.ts';
import { SELFTEST_DIR, tempDir } from './helpers.ts';

const WAIT = 10_000;

const report = makeReport();
const dir = tempDir('report-html-');
const file = join(dir, 'report.html');
writeFileSync(file, renderHtml(report), 'utf8');
const fileUrl = pathToFileURL(file).href;

let browser: Browser | undefined;

interface Session {
  context: BrowserContext;
  page: Page;
  requests: string[];
  blocked: string[];
  problems: string[];
}

async function open(javaScriptEnabled = true, width = 1280): Promise<Session> {
  if (!browser) throw new Error('browser not started');
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width, height: 900 }, serviceWorkers: 'block' });
  context.setDefaultTimeout(WAIT);
  context.setDefaultNavigationTimeout(WAIT);
  const session: Session = { context, page: await context.newPage(), requests: [], blocked: [], problems: [] };
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url === fileUrl) await route.continue();
    else {
      session.blocked.push(url);
      await route.abort('blockedbyclient');
    }
  });
  const { page } = session;
  page.on('request', (r) => session.requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') session.problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => session.problems.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => {
    session.problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  await page.goto(fileUrl, { waitUntil: 'load', timeout: WAIT });
  return session;
}

/** Rejects when the promise has not settled after ms (for calls that take no timeout option). */
async function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('report.html in headless Chromium', () => {
  beforeAll(async () => {
    const found = await findChromium();
    // launch() gives the browser a fresh user-data dir of its own and removes it on close.
    browser = await chromium.launch({ executablePath: found.executablePath, args: CHROMIUM_ARGS, headless: true, timeout: 30_000 }).catch((error: unknown) => {
      throw new Error(`Chromium from ${found.source} did not start: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  }, 30_000);

  it('loads nothing but the file itself, runs its script under the CSP, and opens no dialog', async () => {
    const s = await open();
    try {
      const resources = await s.page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
      expect(resources).toEqual([]);
      expect(s.blocked).toEqual([]);
      expect(s.requests).toEqual([fileUrl]);
      expect(s.problems).toEqual([]);
      // The inline script ran (CSP hash accepted): it unhides the copy buttons and the tools.
      await s.page.locator('#tools').waitFor({ state: 'visible', timeout: WAIT });
      expect(await s.page.locator('img, iframe, object, embed').count()).toBe(0);
      expect(await s.page.locator('script').count()).toBe(1);
    } finally {
      await s.context.close();
    }
  });

  it('shows the verdict and the conformance matrix with the right counts', async () => {
    const s = await open();
    try {
      const { page } = s;
      await expect.poll(() => page.locator('#verdict').isVisible(), { timeout: WAIT }).toBe(true);
      expect(await page.locator('#verdict h1').innerText()).toContain('DOES NOT SHIP');
      const matrix = page.locator('table.matrix');
      await matrix.waitFor({ state: 'visible', timeout: WAIT });
      const groups = groupBySection(report);
      expect(await matrix.locator('tbody tr').count()).toBe(groups.length);
      for (const g of groups) {
        const row = matrix.locator(`tbody tr[data-section="${g.section}"]`);
        expect(await row.isVisible()).toBe(true);
        expect(await row.locator('th').innerText()).toBe(g.label);
        for (const o of OUTCOMES) {
          expect(await row.locator(`td[data-outcome="${o}"]`).innerText(), `${g.section} ${o}`).toBe(String(g.counts[o]));
        }
      }
      const total = countOutcomes(report.clauses);
      for (const o of OUTCOMES) {
        expect(await matrix.locator(`tfoot td[data-outcome="${o}"]`).innerText()).toBe(String(total[o]));
      }
      // Failing cells are coloured.
      const failBg = await matrix.locator('tbody tr[data-section="8"] td[data-outcome="fail"]').evaluate((el) => String(el.ownerDocument.defaultView?.getComputedStyle(el).backgroundColor));
      const zeroBg = await matrix.locator('tbody tr[data-section="2.1"] td[data-outcome="fail"]').evaluate((el) => String(el.ownerDocument.defaultView?.getComputedStyle(el).backgroundColor));
      expect(failBg).toBe('rgb(207, 34, 46)');
      expect(failBg).not.toBe(zeroBg);
    } finally {
      await s.context.close();
    }
  });

  it('opens with a failure showing Expected beside Actual, with sentence, counterexample, replay, evidence and curl', async () => {
    const s = await open();
    try {
      const { page } = s;
      const clause = page.locator('details[data-clause="list.limit-max"]');
      const expected = clause.locator('.check.fail .ea .expected');
      const actual = clause.locator('.check.fail .ea .actual');
      await expected.waitFor({ state: 'visible', timeout: WAIT });
      await actual.waitFor({ state: 'visible', timeout: WAIT });
      expect(await expected.innerText()).toContain('400 with an Error body (limit=101 is above the maximum 100)');
      expect(await actual.innerText()).toContain('200 with 101 animals, no Error body');
      // Side by side: same row, Expected on the left.
      const e = (await expected.boundingBox())!;
      const a = (await actual.boundingBox())!;
      expect(Math.abs(e.y - a.y)).toBeLessThan(2);
      expect(e.x + e.width).toBeLessThanOrEqual(a.x);
      const body = await clause.innerText();
      for (const text of ['Default 20, minimum 1, maximum 100', '{"limit":101}', 'seed 1234567, path "14:2:0"', 'GET https://api.example.test/v1/pets?limit=101', 'HTTP 200', `"name":"<script>alert('owned')</script>"`, 'curl -sS -X GET']) {
        expect(body).toContain(text);
      }
      // The hostile body is text, not markup.
      expect(await page.locator('details[data-clause="list.limit-max"] pre img').count()).toBe(0);
      // Copy button is there (JS on) and reacts.
      const copy = clause.locator('button.copy');
      await copy.waitFor({ state: 'visible', timeout: WAIT });
      await copy.click({ timeout: WAIT });
      await expect.poll(() => copy.innerText(), { timeout: WAIT }).toMatch(/Copied|Select and copy/);

      await page.locator('#capabilities').scrollIntoViewIfNeeded({ timeout: WAIT });
      expect(await page.locator('table.caps tbody tr').count()).toBe(report.capabilities.length);
      expect(await page.locator('#engine-errors').innerText()).toContain('ECONNRESET');

      await page.evaluate('window.scrollTo(0, 0)');
      mkdirSync(SELFTEST_DIR, { recursive: true });
      await page.screenshot({ path: join(SELFTEST_DIR, 'report-screenshot.png'), fullPage: true, timeout: WAIT });
      expect(s.problems).toEqual([]);
    } finally {
      await s.context.close();
    }
  });

  it('starts failures and warnings open and passes closed; a click folds either way', async () => {
    const s = await open();
    try {
      const { page } = s;
      for (const id of ['create.invalid-400', 'create.location', 'auth.required', 'list.limit-max']) {
        expect(await page.locator(`details[data-clause="${id}"] .clause-body`).isVisible(), id).toBe(true);
      }
      for (const id of ['create.echo', 'list.invalid-query-handling', 'messages.status-queued']) {
        expect(await page.locator(`details[data-clause="${id}"] .clause-body`).isVisible(), id).toBe(false);
      }
      const failing = page.locator('details[data-clause="list.limit-max"]');
      await failing.locator('summary').click({ timeout: WAIT });
      await failing.locator('.clause-body').waitFor({ state: 'hidden', timeout: WAIT });
      await page.locator('#collapse-all').click({ timeout: WAIT });
      await page.locator('details[data-clause="create.invalid-400"] .clause-body').waitFor({ state: 'hidden', timeout: WAIT });
      await page.locator('#expand-problems').click({ timeout: WAIT });
      await failing.locator('.clause-body').waitFor({ state: 'visible', timeout: WAIT });
      expect(await page.locator('details[data-clause="create.echo"] .clause-body').isVisible()).toBe(false);
      expect(s.problems).toEqual([]);
    } finally {
      await s.context.close();
    }
  });

  it('works with JavaScript disabled (failures start open, details still fold; copy buttons stay hidden)', async () => {
    const s = await open(false);
    try {
      const { page } = s;
      const clause = page.locator('details[data-clause="create.invalid-400"]');
      const expected = clause.locator('.ea .expected');
      await expected.waitFor({ state: 'visible', timeout: WAIT });
      expect(await clause.locator('.ea .actual').innerText()).toContain('201 Created');
      await clause.locator('summary').click({ timeout: WAIT });
      await expected.waitFor({ state: 'hidden', timeout: WAIT });
      const passing = page.locator('details[data-clause="create.echo"]');
      expect(await passing.locator('.clause-body').isVisible()).toBe(false);
      await passing.locator('summary').click({ timeout: WAIT });
      await passing.locator('.clause-body').waitFor({ state: 'visible', timeout: WAIT });
      expect(await clause.locator('button.copy').isVisible()).toBe(false);
      expect(await page.locator('#tools').isVisible()).toBe(false);
    } finally {
      await s.context.close();
    }
  });

  it('at 420 px wide the page does not scroll sideways, the matrix fits, with every clause open too', async () => {
    const s = await open(true, 420);
    try {
      const { page } = s;
      await page.locator('#tools').waitFor({ state: 'visible', timeout: WAIT });
      // The page's and the matrix box's scroll widths against their visible widths.
      const widths = () =>
        page.evaluate<{ page: number; viewport: number; matrix: number; matrixBox: number }>(`(() => {
          const root = document.documentElement;
          const wrap = document.querySelector('table.matrix').parentElement;
          return { page: root.scrollWidth, viewport: root.clientWidth, matrix: wrap.scrollWidth, matrixBox: wrap.clientWidth };
        })()`);
      const closed = await widths();
      expect(closed.viewport).toBe(420);
      expect(closed.page).toBeLessThanOrEqual(closed.viewport);
      // The matrix fits its box rather than scrolling inside it.
      expect(closed.matrix).toBeLessThanOrEqual(closed.matrixBox);
      await page.locator('#expand-all').click({ timeout: WAIT });
      await page.locator('details[data-clause="create.echo"] .clause-body').waitFor({ state: 'visible', timeout: WAIT });
      const opened = await widths();
      expect(opened.page).toBeLessThanOrEqual(opened.viewport);
      mkdirSync(SELFTEST_DIR, { recursive: true });
      await page.screenshot({ path: join(SELFTEST_DIR, 'report-screenshot-420.png'), fullPage: true, timeout: WAIT });
      expect(s.problems).toEqual([]);
    } finally {
      await s.context.close();
    }
  });

  it('shows an observed clause as OBSERVE once, its level beside another outcome as before', async () => {
    const s = await open();
    try {
      const { page } = s;
      const said = async (id: string) => (await page.locator(`details[data-clause="${id}"] > summary`).innerText()).match(/OBSERVE/g)?.length ?? 0;
      expect(await said('list.invalid-query-handling')).toBe(1); // level OBSERVE, observed
      expect(await said('orders.access')).toBe(1); // level OBSERVE, skipped: SKIP and OBSERVE
      expect(await page.locator('details[data-clause="orders.access"] > summary').innerText()).toMatch(/SKIP/);
    } finally {
      await s.context.close();
    }
  });

  it('prints failure details even when they are collapsed', async () => {
    const s = await open(false);
    try {
      const { page } = s;
      const clause = page.locator('details[data-clause="list.limit-max"]');
      await clause.locator('summary').click({ timeout: WAIT });
      const expected = clause.locator('.check.fail .ea .expected');
      await expected.waitFor({ state: 'hidden', timeout: WAIT });
      await page.emulateMedia({ media: 'print' });
      await expected.waitFor({ state: 'visible', timeout: WAIT });
      const pdf = await bounded(page.pdf({ format: 'A4' }), WAIT, 'page.pdf');
      expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
    } finally {
      await s.context.close();
    }
  });
});

/**
 * Issue 38: the client's report as a web page, in Debian's chromium. One real month-end from the
 * sandbox over HTTP (50 holdings, one named `<img src=x onerror=…>`, a month-end recorded before
 * it in the history database so the value-over-time chart and the periods exist, and a small
 * Arabic client beside it), opened from file:// offline, JavaScript on and off, at 375 × 812
 * and 1,280 × 900. The figures are read from the page and compared with the JSON report's,
 * formatted by the report's own translator; axe-core checks WCAG 2.2 AA; print goes through
 * page.pdf and is read back with pdftotext and pdfinfo.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingsCsv } from '../../bench/support/report-run';
import { reportTranslator } from '../../reports/writers/report-language';
import { readJson, runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from '../reports/helpers';
import { axeViolations, DESKTOP, everyOpening, isA4, launchChromium, openOffline, PHONE, printA4, screenshot, sideScroll, withPage as withBrowserPage } from './browser-harness';

const HOSTILE = '<img src=x onerror=window.__x=1>';
const CLIENT = 'Client 0001';
const ARABIC = 'Haddad Family';
const AS_OF = '2026-10-31';

interface JsonReport {
  language?: 'en';
  currency: string;
  summary: { current_value: number };
  holdings: { asset_id: string; description: string; current_value: number | null }[];
  performance: { periods: Record<string, { twr_percent: number | null; mwr_percent: number | null } | null> };
}

/** 50 holdings of one client (the second named HOSTILE), and eight of an Arabic-speaking client; a language column. */
function holdings(): string {
  const [header, ...rows] = holdingsCsv(1, 50).trimEnd().split('\r\n');
  const cells = rows[1]!.split(',');
  cells[3] = HOSTILE;
  rows[1] = cells.join(',');
  const arabic = rows.slice(10, 18).map((r) => r.replace(CLIENT, ARABIC));
  return [`${header},Language`, ...rows.map((r) => `${r},`), ...arabic.map((r) => `${r},ar`)].join('\r\n') + '\r\n';
}

let sb: TestSandbox;
let browser: Browser;
let dir: string;
let page: string;
let arabicPage: string;
let json: JsonReport;

beforeAll(async () => {
  sb = await testSandbox();
  dir = tempDir('svc-html-browser-');
  writeFileSync(join(dir, 'holdings.csv'), holdings());
  const db = join(dir, 'db');
  // Last month-end recorded first: this month's report then has a value history (the chart) and periods.
  for (const [asOf, formats] of [['2026-09-30', 'json'], [AS_OF, 'json,html']] as const) {
    const r = await runCli(['run', join(dir, 'holdings.csv'), '--out', join(dir, asOf), '--as-of', asOf, '--formats', formats, '--db', db], serviceEnv(sb));
    if (r.code !== 0) throw new Error(`run as of ${asOf} exited ${r.code}: ${r.stderr.slice(-2000)}`);
  }
  page = join(dir, AS_OF, `client-0001-${AS_OF}.html`);
  arabicPage = join(dir, AS_OF, `haddad-family-${AS_OF}.html`);
  json = readJson(join(dir, AS_OF, `client-0001-${AS_OF}.json`)) as JsonReport;
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await sb?.close();
});

/** The report (or another file) opened offline in this file's browser. */
const withPage = <T>(file: string, opts: Parameters<typeof openOffline>[2], check: (p: Page) => Promise<T>) => withBrowserPage(browser, file, opts, check);

describe('the report as a web page, offline from file://', () => {
  it('asks for nothing but the file itself, JavaScript on or off, and never scrolls sideways at 375 px', async () => {
    for (const o of await everyOpening(browser, page, 'report')) {
      expect(o.requests, o.label).toEqual(new Set([pathToFileURL(page).href]));
      if (o.phone) expect(o.width.scrollWidth, o.label).toBeLessThanOrEqual(o.width.clientWidth);
    }
  });

  it("with JavaScript off, shows the total, every holding's value and every period's returns as the JSON report has them, in the report's own formatting", async () => {
    const tr = reportTranslator(json);
    const cur = json.currency;
    const { result } = await withPage(page, { viewport: DESKTOP, javaScriptEnabled: false }, async (p) => ({
      main: await p.locator('main').innerText(),
      rows: await p.locator('#holdings tbody tr').allInnerTexts(),
      foot: await p.locator('#holdings tfoot').innerText(),
    }));
    const total = tr.money(json.summary.current_value, cur, 0);
    expect(result.foot).toContain(total);
    expect(result.main).toContain(total);
    expect(result.rows).toHaveLength(json.holdings.length);
    expect(json.holdings.length).toBe(50);
    json.holdings.forEach((h, i) => {
      expect(result.rows[i], h.asset_id).toContain(h.asset_id);
      expect(result.rows[i], h.asset_id).toContain(tr.money(h.current_value, cur, 0));
    });
    const periods = Object.entries(json.performance.periods).filter(([, p]) => p !== null);
    // The history recorded last month gives this month its periods: at least the month to date.
    expect(periods.map(([k]) => k)).toContain('mtd');
    for (const [key, p] of periods) {
      for (const value of [p!.twr_percent, p!.mwr_percent]) if (value !== null) expect(result.main, key).toContain(tr.percent(value, { signed: true }));
    }
  });

  it('keeps a hostile holding name as text: the markup shows, nothing runs', async () => {
    const { result } = await withPage(page, { viewport: DESKTOP }, async (p) => ({
      ran: await p.evaluate(() => (window as unknown as { __x?: unknown }).__x),
      images: await p.locator('img[src="x"]').count(),
      text: await p.locator('#holdings').innerText(),
    }));
    expect(result.ran).toBeUndefined();
    expect(result.images).toBe(0);
    expect(result.text).toContain(HOSTILE);
  });

  it('sorts the holdings and filters them by keyboard alone; the count of rows shown is announced', async () => {
    await withPage(page, { viewport: DESKTOP }, async (p) => {
      // Tab from the top of the page to the first sort button of the holdings table's header.
      const sortButton = p.locator('#holdings thead button').first();
      await expect.poll(() => sortButton.count()).toBeGreaterThan(0);
      let tabs = 0;
      while (!(await sortButton.evaluate((b) => b === document.activeElement)) && tabs++ < 200) await p.keyboard.press('Tab');
      expect(tabs, 'the sort button is reached with Tab').toBeLessThan(200);
      // The value column's button: Tab along the header to it.
      const valueHeader = p.locator('#holdings thead th').nth(6);
      const valueButton = valueHeader.locator('button');
      while (!(await valueButton.evaluate((b) => b === document.activeElement)) && tabs++ < 220) await p.keyboard.press('Tab');
      const valuesShown = () => p.locator('#holdings tbody tr:not([hidden]) td:nth-child(7)').evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-value'))));
      await p.keyboard.press('Enter');
      const once = await valuesShown();
      const sorted = [...once].sort((a, b) => a - b);
      expect(once.join() === sorted.join() || once.join() === [...sorted].reverse().join(), 'sorted by value').toBe(true);
      expect(await valueHeader.getAttribute('aria-sort')).toMatch(/^(ascending|descending)$/);
      const first = await valueHeader.getAttribute('aria-sort');
      await p.keyboard.press('Enter');
      expect(await valueHeader.getAttribute('aria-sort')).not.toBe(first);
      expect(await valuesShown()).toEqual([...once].reverse());

      // The filter: reached by Tab, typed into; rows that do not match are hidden and the count is said.
      const filter = p.locator('input[type="search"]');
      expect(await filter.count()).toBe(1);
      // Before the table: back from the header with Shift+Tab.
      while (!(await filter.evaluate((f) => f === document.activeElement)) && tabs++ < 400) await p.keyboard.press('Shift+Tab');
      expect(tabs, 'the filter is reached with Shift+Tab').toBeLessThan(400);
      await p.keyboard.type('Rolex');
      const rows = p.locator('#holdings tbody tr');
      await expect.poll(() => rows.locator('visible=true').count()).toBeLessThan(50);
      const shown = await rows.evaluateAll((rs) => rs.filter((r) => !(r as HTMLElement).hidden && getComputedStyle(r).display !== 'none').map((r) => (r as HTMLElement).innerText));
      expect(shown.length).toBeGreaterThan(0);
      for (const text of shown) expect(text).toMatch(/Rolex/i);
      const announced = await p.locator('[role="status"], [aria-live="polite"]').allInnerTexts();
      expect(announced.join(' ')).toContain(String(shown.length));
    });
  });
});

describe('accessibility: axe-core, WCAG 2.2 AA', () => {
  it('finds no violation at 375 and 1,280 px, and none in the Arabic report (right to left, no sideways scroll)', async () => {
    for (const [file, viewport] of [[page, PHONE], [page, DESKTOP], [arabicPage, PHONE]] as const) {
      const { result } = await withPage(file, { viewport, bypassCSP: true }, async (p) => ({ violations: await axeViolations(p), dir: await p.getAttribute('html', 'dir'), lang: await p.getAttribute('html', 'lang'), width: await sideScroll(p) }));
      expect(result.violations, `${file} at ${viewport.width} px`).toEqual([]);
      if (file === arabicPage) {
        expect(result.dir).toBe('rtl');
        expect(result.lang).toBe('ar');
        expect(result.width.scrollWidth).toBeLessThanOrEqual(result.width.clientWidth);
      }
    }
    await withPage(arabicPage, { viewport: PHONE }, (p) => screenshot(p, 'report-ar-375'));
  });
});

describe('print', () => {
  it('prints on A4 pages with every section heading of the page', async () => {
    const { result } = await withPage(page, { viewport: DESKTOP }, async (p) => ({ headings: await p.locator('main h2').allTextContents(), printed: await printA4(p, join(dir, 'printed.pdf')) }));
    expect(result.headings.length).toBeGreaterThanOrEqual(4);
    // Compared without case: a style sheet may set a heading in capitals.
    for (const h of result.headings) expect(result.printed.text.toLowerCase(), h).toContain(h.replace(/\s+/g, ' ').trim().toLowerCase());
    expect(result.printed.sizes.length).toBeGreaterThan(1);
    for (const size of result.printed.sizes) expect(isA4(size), `a page of ${size.join(' × ')} pt`).toBe(true);
  });
});

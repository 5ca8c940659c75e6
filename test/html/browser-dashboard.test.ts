/**
 * Issue 38: the market dashboard as a web page, in Debian's chromium. One real dashboard from the
 * sandbox over HTTP (`svc-report dashboard --formats json,html`), opened from file:// offline,
 * JavaScript on and off, at 375 × 812 and 1,280 × 900: nothing asked for beyond the file, no
 * sideways scroll on a phone, every segment's figures as the JSON dashboard has them (the same
 * translator), axe-core's WCAG 2.2 AA rules clean, and print on A4 with every section.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translator } from '../../src/i18n';
import { readJson, runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from '../reports/helpers';
import { axeViolations, DESKTOP, everyOpening, isA4, launchChromium, openOffline, PHONE, printA4, withPage as withBrowserPage } from './browser-harness';

const AS_OF = '2026-10-31';

interface JsonDashboard {
  language?: 'en';
  segments: { segment_name: string; change_7d_percent: number | null; change_30d_percent: number | null; change_90d_percent: number | null }[];
  top_movers: { brand: string; model: string }[];
}

let sb: TestSandbox;
let browser: Browser;
let dir: string;
let page: string;
let json: JsonDashboard;

beforeAll(async () => {
  sb = await testSandbox();
  dir = tempDir('svc-html-dashboard-');
  const r = await runCli(['dashboard', '--out', dir, '--as-of', AS_OF, '--formats', 'json,html'], serviceEnv(sb));
  if (r.code !== 0) throw new Error(`dashboard exited ${r.code}: ${r.stderr.slice(-2000)}`);
  page = join(dir, `market-dashboard-${AS_OF}.html`);
  json = readJson(join(dir, `market-dashboard-${AS_OF}.json`)) as JsonDashboard;
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await sb?.close();
});

const withPage = <T>(opts: Parameters<typeof openOffline>[2], check: (p: Page) => Promise<T>) => withBrowserPage(browser, page, opts, check);

describe('the market dashboard as a web page, offline from file://', () => {
  it('asks for nothing but the file itself, JavaScript on or off, and never scrolls sideways at 375 px', async () => {
    for (const o of await everyOpening(browser, page, 'dashboard')) {
      expect(o.requests, o.label).toEqual(new Set([pathToFileURL(page).href]));
      if (o.phone) expect(o.width.scrollWidth, o.label).toBeLessThanOrEqual(o.width.clientWidth);
    }
  });

  it("shows every segment's 7, 30 and 90-day change and every top mover as the JSON dashboard has them (JavaScript off)", async () => {
    const tr = translator(json.language ?? 'en');
    const { result: main } = await withPage({ viewport: DESKTOP, javaScriptEnabled: false }, (p) => p.locator('main').innerText());
    expect(json.segments.length).toBeGreaterThan(5);
    for (const s of json.segments) {
      expect(main).toContain(s.segment_name);
      for (const v of [s.change_7d_percent, s.change_30d_percent, s.change_90d_percent]) expect(main, s.segment_name).toContain(tr.percent(v, { digits: 1, signed: true }));
    }
    for (const m of json.top_movers) expect(main).toContain(m.model);
  });

  it('finds no WCAG 2.2 AA violation (axe-core) at 375 or 1,280 px', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { result } = await withPage({ viewport, bypassCSP: true }, axeViolations);
      expect(result, `${viewport.width} px`).toEqual([]);
    }
  });

  it('prints on A4 pages with every section heading', async () => {
    const { result } = await withPage({ viewport: DESKTOP }, async (p) => ({ headings: await p.locator('main h2').allTextContents(), printed: await printA4(p, join(dir, 'printed.pdf')) }));
    expect(result.headings.length).toBeGreaterThanOrEqual(3);
    for (const h of result.headings) expect(result.printed.text.toLowerCase(), h).toContain(h.replace(/\s+/g, ' ').trim().toLowerCase());
    for (const size of result.printed.sizes) expect(isA4(size), `a page of ${size.join(' × ')} pt`).toBe(true);
  });
});

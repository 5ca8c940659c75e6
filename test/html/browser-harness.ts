/**
 * The web page's browser tests (issue 38) share this: Debian's chromium through playwright-core
 * (launched as test/addin/ launches it), a page opened from file:// offline with every request it
 * makes recorded, axe-core's WCAG 2.2 AA rules run inside it, and the screenshots kept in
 * test-artifacts/html/ for a person to look at.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from '../reports/helpers';

/** Where the screenshots go (gitignored): README says so. */
export const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'html');

export const PHONE = { width: 375, height: 812 };
export const DESKTOP = { width: 1280, height: 900 };

/** The rule sets of WCAG 2.0, 2.1 and 2.2 at levels A and AA, as axe-core tags them. */
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  /** Every URL the page asked for (the file itself included), as often as asked. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * The file opened as a mail attachment or a USB stick opens it: from file://, with the network
 * off (context.setOffline) and every request recorded and refused unless it is the file itself.
 * `bypassCSP` only for the axe run: axe's source is injected as a script, which the page's policy
 * rightly refuses.
 */
export async function openOffline(browser: Browser, file: string, opts: { viewport: { width: number; height: number }; javaScriptEnabled?: boolean; bypassCSP?: boolean }): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: opts.viewport, javaScriptEnabled: opts.javaScriptEnabled ?? true, bypassCSP: opts.bypassCSP ?? false });
  await context.setOffline(true);
  const url = pathToFileURL(file).href;
  const requests: string[] = [];
  await context.route('**', (route) => {
    requests.push(route.request().url());
    return route.request().url() === url ? route.continue() : route.abort();
  });
  const page = await context.newPage();
  // The route sees what would go to the network; the request event also what chromium reads itself (file:).
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(url, { waitUntil: 'load' });
  return { page, context, requests, close: () => context.close() };
}

/** axe-core's violations of WCAG 2.2 AA on the page as it is now: rule id, impact and the first elements at fault. */
export async function axeViolations(page: Page): Promise<{ id: string; impact: string | null; help: string; targets: string[]; why: string }[]> {
  const axeFile = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
  await page.addScriptTag({ content: readFileSync(axeFile, 'utf8') });
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[] }> } }).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    // The first element's summary says why (for colour contrast: the two colours and the ratio found).
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => JSON.stringify(n.target)), why: v.nodes[0]?.failureSummary ?? '' }));
  }, WCAG_22_AA);
}

/** The page is no wider than its viewport: nothing scrolls sideways. */
export const sideScroll = (page: Page): Promise<{ scrollWidth: number; clientWidth: number }> =>
  page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));

/** A full-page screenshot into test-artifacts/html/<name>.png; its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Opens the file offline, runs `check` on it and closes it; what `check` gave and the requests the page made. */
export async function withPage<T>(browser: Browser, file: string, opts: Parameters<typeof openOffline>[2], check: (p: Page) => Promise<T>): Promise<{ result: T; requests: string[] }> {
  const opened = await openOffline(browser, file, opts);
  try {
    return { result: await check(opened.page), requests: opened.requests };
  } finally {
    await opened.close();
  }
}

/**
 * Prints the page as chromium prints it (the print style sheet, A4) into `pdf`, and reads it back
 * with poppler: its text (white space folded) and each page's size in points.
 */
export async function printA4(page: Page, pdf: string): Promise<{ text: string; sizes: [number, number][] }> {
  await page.emulateMedia({ media: 'print' });
  writeFileSync(pdf, await page.pdf({ format: 'A4', printBackground: true }));
  const text = execFileSync('pdftotext', [pdf, '-']).toString().replace(/\s+/g, ' ');
  const info = execFileSync('pdfinfo', ['-f', '1', '-l', '9999', pdf]).toString();
  const sizes = [...info.matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/g)].map((m) => [Number(m[1]), Number(m[2])] as [number, number]);
  return { text, sizes };
}

/** A4 in points: 595.28 × 841.89. */
export const isA4 = ([w, h]: [number, number]) => Math.abs(w - 595.28) < 1 && Math.abs(h - 841.89) < 1;

/**
 * The file opened each way a reader opens it (375 and 1,280 px, JavaScript on and off), a
 * screenshot of each kept as `<name>-<width>[-no-js].png`: what each opening asked for and how
 * wide the page was.
 */
export async function everyOpening(browser: Browser, file: string, name: string) {
  const openings = [];
  for (const javaScriptEnabled of [true, false]) {
    for (const viewport of [PHONE, DESKTOP]) {
      const label = `${viewport.width} px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;
      const { result: width, requests } = await withPage(browser, file, { viewport, javaScriptEnabled }, async (p) => {
        await screenshot(p, `${name}-${viewport.width}${javaScriptEnabled ? '' : '-no-js'}`);
        return sideScroll(p);
      });
      openings.push({ label, phone: viewport === PHONE, requests: new Set(requests), width });
    }
  }
  return openings;
}

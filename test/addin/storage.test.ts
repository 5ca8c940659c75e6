import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { buildAddin } from '../../addin/build/build';
import { startStack, type Stack } from './stack';
import { writeExcelRuntimePages } from './browser-pages';
import { realCatalogueIds } from './real-ids';
import { cellOf, openExcelIn, readMetadata, type ExcelPage, type FunctionMeta } from './cards-excel';

/**
 * Answers kept on the machine: a second "workbook open" — a fresh page of Microsoft's runtime
 * in the same browser profile, so the same storage — asks the service nothing for answers
 * still valid; SVC.REFRESH clears what is kept.
 */
let stack: Stack;
let dist: string;
let browser: Browser;
let ids: string[];
let metadata: FunctionMeta[];

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'svc-addin-storage-'));
  await buildAddin({ outDir: dist });
  await writeExcelRuntimePages(dist);
  metadata = await readMetadata(dist);
  stack = await startStack({ host: { distDir: dist } });
  ids = await realCatalogueIds(stack.sandboxUrl, stack.account, 300);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await rm(dist, { recursive: true, force: true });
});

const VALUATION_PATHS = ['/v1/valuations', '/v1/valuations/batch'];
async function valuationCallsSince(before: number) {
  return (await stack.log()).slice(before).filter((l) => VALUATION_PATHS.includes(l.path));
}
const apiRequests = (excel: ExcelPage) => excel.requested.filter((u) => new URL(u).pathname.startsWith('/api/'));

/** The workbook: 1,000 cells over 300 assets, plus 20 asset cards. */
function workbook() {
  const kinds = ['MIDVALUE', 'SCORE', 'VALUATION'] as const;
  return [
    ...Array.from({ length: 1000 }, (_, i) => cellOf(metadata, kinds[i % 3]!, [ids[i % 300]], `Sheet1!A${i + 1}`)),
    ...Array.from({ length: 20 }, (_, i) => cellOf(metadata, 'ASSET', [ids[i]], `Sheet1!B${i + 1}`)),
  ];
}

async function recalculate(excel: ExcelPage) {
  const cells = workbook();
  const invocationIds: number[] = [];
  for (let b = 0; b < cells.length; b += 100) invocationIds.push(...(await excel.invoke(cells.slice(b, b + 100))));
  return excel.results(invocationIds);
}

describe('answers kept on the machine across workbook opens', () => {
  it('a second open over 1,020 cells and 300 assets sends nothing upstream, and SVC.REFRESH clears what is kept', async () => {
    const context = await browser.newContext();
    try {
      const before = (await stack.log()).length;
      const first = await openExcelIn(context, stack.host.url);
      const firstResults = await recalculate(first);
      expect(firstResults.filter((r) => !r.ok).map((r) => r.message)).toEqual([]);
      expect((await valuationCallsSince(before)).length).toBeGreaterThan(0);
      const kept = await first.frame.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('svc-addin:answers:')));
      expect(kept.sort()).toEqual(['svc-addin:answers:cards', 'svc-addin:answers:valuations:USD']);
      // Only answers are kept: no token or secret in what the page stored.
      const stored = await first.frame.evaluate(() => JSON.stringify(Object.entries(localStorage)));
      expect(stored).not.toMatch(/access_token|refresh_token|client_secret|Bearer/i);
      await first.close();

      const reopenedAt = (await stack.log()).length;
      const second = await openExcelIn(context, stack.host.url);
      const secondResults = await recalculate(second);
      expect(secondResults).toEqual(firstResults);
      expect(apiRequests(second)).toEqual([]);
      expect(await valuationCallsSince(reopenedAt)).toEqual([]);

      // SVC.REFRESH forgets what is kept: the next open asks again.
      await second.results(await second.invoke([cellOf(metadata, 'REFRESH', [1])]));
      expect(await second.frame.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('svc-addin:answers:')))).toEqual([]);
      await second.close();
      const third = await openExcelIn(context, stack.host.url);
      const [r] = await third.results(await third.invoke([cellOf(metadata, 'MIDVALUE', [ids[0]])]));
      expect(r).toMatchObject({ ok: true });
      // (The host may answer it from its own shared cache; the pane's Refresh clears that too.)
      expect(apiRequests(third).map((u) => new URL(u).pathname)).toEqual(['/api/v1/valuations/batch']);
      await third.close();
    } finally {
      await context.close();
    }
  }, 240_000);
});

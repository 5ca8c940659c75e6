import { describe, expect, it } from 'vitest';
import type { Frame } from 'playwright-core';
import { writeStandinPages } from './browser-pages';
import { openExcelIn, recalculate, useExcelStack } from './excel-harness';

/**
 * Answers kept on the machine: a second "workbook open" — a fresh page of Microsoft's runtime
 * in the same browser profile, so the same storage — asks the service nothing for answers
 * still valid; SVC.REFRESH clears what is kept. Under Microsoft's runtime the store is
 * OfficeRuntime.storage (excel-web-16.00.js's own, asynchronous, which keeps its items in
 * localStorage under `_OfficeRuntime_Storage_`); without an Office runtime (the stand-in page)
 * it is the page's localStorage itself.
 */
const env = useExcelStack('storage', 300, writeStandinPages);


const VALUATION_PATHS = ['/v1/valuations', '/v1/valuations/batch'];
async function valuationCallsSince(before: number) {
  return (await env.stack.log()).slice(before).filter((l) => VALUATION_PATHS.includes(l.path));
}
const apiRequests = (excel: { requested: string[] }) => excel.requested.filter((u) => new URL(u).pathname.startsWith('/api/'));

/** The workbook: 1,000 cells over 300 assets, plus 20 asset cards. */
function workbook() {
  const kinds = ['MIDVALUE', 'SCORE', 'VALUATION'] as const;
  return [
    ...Array.from({ length: 1000 }, (_, i) => env.build.cell(kinds[i % 3]!, [env.ids[i % 300]], `Sheet1!A${i + 1}`)),
    ...Array.from({ length: 20 }, (_, i) => env.build.cell('ASSET', [env.ids[i]], `Sheet1!B${i + 1}`)),
  ];
}

const OFFICE_RUNTIME_ITEM = '_OfficeRuntime_Storage_svc-addin:answers:';
const keptKeys = (frame: Frame, prefix: string) => frame.evaluate((p) => Object.keys(localStorage).filter((k) => k.startsWith(p)).sort(), prefix);

describe('answers kept on the machine across workbook opens', () => {
  it('OfficeRuntime.storage: a second open over 1,020 cells and 300 assets sends nothing upstream, and SVC.REFRESH clears what is kept', async () => {
    const context = await env.build.browser.newContext();
    try {
      const before = (await env.stack.log()).length;
      const first = await openExcelIn(context, env.stack.host.url);
      const firstResults = await recalculate(first, workbook());
      expect(firstResults.filter((r) => !r.ok).map((r) => r.message)).toEqual([]);
      expect((await valuationCallsSince(before)).length).toBeGreaterThan(0);
      // Written through Microsoft's OfficeRuntime.storage (its items carry its prefix), after the answers arrived.
      await first.frame.waitForFunction((p) => Object.keys(localStorage).filter((k) => k.startsWith(p)).length === 2, OFFICE_RUNTIME_ITEM);
      expect(await keptKeys(first.frame, OFFICE_RUNTIME_ITEM)).toEqual([`${OFFICE_RUNTIME_ITEM}cards:v2`, `${OFFICE_RUNTIME_ITEM}valuations:USD`]);
      expect(await keptKeys(first.frame, 'svc-addin:')).toEqual([]);
      // Only answers are kept: no token or secret in what the page stored.
      const stored = await first.frame.evaluate(() => JSON.stringify(Object.entries(localStorage)));
      expect(stored).not.toMatch(/access_token|refresh_token|client_secret|Bearer/i);
      await first.close();

      const reopenedAt = (await env.stack.log()).length;
      const second = await openExcelIn(context, env.stack.host.url);
      const secondResults = await recalculate(second, workbook());
      expect(secondResults).toEqual(firstResults);
      expect(apiRequests(second)).toEqual([]);
      expect(await valuationCallsSince(reopenedAt)).toEqual([]);

      // SVC.REFRESH forgets what is kept: the next open asks again.
      await second.results(await second.invoke([env.build.cell('REFRESH', [1])]));
      await second.frame.waitForFunction((p) => !Object.keys(localStorage).some((k) => k.startsWith(p)), OFFICE_RUNTIME_ITEM);
      await second.close();
      const third = await openExcelIn(context, env.stack.host.url);
      const [r] = await third.results(await third.invoke([env.build.cell('MIDVALUE', [env.ids[0]])]));
      expect(r).toMatchObject({ ok: true });
      // (The host may answer it from its own shared cache; the pane's Refresh clears that too.)
      expect(apiRequests(third).map((u) => new URL(u).pathname)).toEqual(['/api/v1/valuations/batch']);
      await third.close();
    } finally {
      await context.close();
    }
  }, 240_000);

  it('localStorage where no Office runtime provides storage: the second open asks nothing', async () => {
    const context = await env.build.browser.newContext();
    type W = { __invoke(id: string, args: unknown[]): Promise<{ ok: boolean; value?: unknown }> };
    const open = async () => {
      const page = await context.newPage();
      const requested: string[] = [];
      page.on('request', (r) => requested.push(r.url()));
      await page.goto(`${env.stack.host.url}/cf-standin.html`);
      await page.waitForFunction(() => 'MIDVALUE' in ((window as unknown as { __associated?: object }).__associated ?? {}));
      const values = await page.evaluate((list) => Promise.all(list.map((id) => (window as unknown as W).__invoke('MIDVALUE', [id]))), env.ids.slice(0, 120));
      return { page, requested, values };
    };
    try {
      const first = await open();
      expect(first.values.every((v) => v.ok)).toBe(true);
      expect(apiRequests(first).length).toBeGreaterThan(0);
      expect(await first.page.evaluate(() => typeof (window as unknown as { OfficeRuntime?: unknown }).OfficeRuntime)).toBe('undefined');
      await first.page.waitForFunction(() => localStorage.getItem('svc-addin:answers:valuations:USD') !== null);
      expect((JSON.parse((await first.page.evaluate(() => localStorage.getItem('svc-addin:answers:valuations:USD')))!) as unknown[]).length).toBe(120);
      await first.page.close();
      const second = await open();
      expect(second.values).toEqual(first.values);
      expect(apiRequests(second)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});

import { describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { ServiceClient } from '../../src/client';
import { holdingForAssetId, requestForAssetId } from '../../addin/src/shared/holdings';
import { openExcelIn, recalculate, reportRequirementSets, useExcelStack, type ExcelPage, type SetResult } from './excel-harness';

/**
 * A browser that blocks third-party storage, as Excel on the web's cross-site frame meets it in
 * Safari, Firefox strict or Chrome with third-party cookies blocked: reading
 * `window.localStorage`, `window.sessionStorage` or `window.indexedDB` throws a SecurityError
 * (what the browser does), in every frame from the start, so OfficeRuntime.storage (which
 * excel-web-16.00.js keeps in localStorage) refuses too. The add-in must start and work online
 * exactly as with storage: the same values, the same coalescing, and the pane saying answers are
 * not kept.
 */
const env = useExcelStack('blocked', 300);

/** In a file of its own (the host's CSP allows no inline script; an init script is not subject to it). */
const BLOCK_STORAGE = `(() => {
  for (const name of ['localStorage', 'sessionStorage', 'indexedDB']) {
    Object.defineProperty(window, name, { configurable: true, get() { throw new DOMException('denied', 'SecurityError'); } });
  }
})();`;

const STORAGE_SENTENCE =
  'Answers cannot be kept on this computer: the browser blocks storage for add-ins (third-party storage). Values are fetched afresh each time; last known values are not available offline.';

/** The workbook: 1,000 cells over 300 assets, plus 20 asset cards. */
function workbook() {
  const kinds = ['MIDVALUE', 'SCORE', 'VALUATION'] as const;
  return [
    ...Array.from({ length: 1000 }, (_, i) => env.build.cell(kinds[i % 3]!, [env.ids[i % 300]], `Sheet1!A${i + 1}`)),
    ...Array.from({ length: 20 }, (_, i) => env.build.cell('ASSET', [env.ids[i]], `Sheet1!B${i + 1}`)),
  ];
}

async function batchCallsSince(before: number) {
  return (await env.stack.log()).slice(before).filter((l) => l.path === '/v1/valuations/batch');
}

/** The pane's storage sentence once the page has chosen its store (awaited in the page: no clock). */
async function storageNotice(excel: ExcelPage): Promise<{ text: string; hidden: boolean }> {
  return excel.frame.evaluate(async () => {
    await (window as unknown as { __svcSafeStorage: { keeping(): Promise<unknown> } }).__svcSafeStorage.keeping();
    const p = document.getElementById('storage-notice')!;
    return { text: p.textContent ?? '', hidden: p.hidden };
  });
}

type Card = { type: string; properties: Record<string, { basicValue: unknown }> };

/** A workbook open in `context`: every result, the upstream batch calls it caused, and what the pane says. */
async function openWorkbook(context: BrowserContext) {
  const before = (await env.stack.log()).length;
  const excel = await openExcelIn(context, env.stack.host.url);
  try {
    await reportRequirementSets(excel.frame, '1.17');
    const results = await recalculate(excel, workbook());
    const batches = await batchCallsSince(before);
    return { excel, results, batches, notice: await storageNotice(excel) };
  } catch (err) {
    await excel.close();
    throw err;
  }
}

/** What each cell says, without the parts that differ between two answers of the service for the same asset (a card's As of). */
function valuesOf(results: SetResult[]): unknown[] {
  return results.map((r) => {
    if (!r.ok) return { error: r.message };
    // A card is a 1×1 matrix holding the entity (SVC.ASSET's result is declared a matrix).
    const card = (Array.isArray(r.value) && r.value.length === 1 && Array.isArray(r.value[0]) && r.value[0].length === 1 ? r.value[0][0] : r.value) as Card;
    if (card?.type === 'Entity') return { mid: card.properties.Mid?.basicValue, id: card.properties['Asset id']?.basicValue };
    return r.value;
  });
}

describe('storage refused by the browser (third-party storage blocked)', () => {
  it("1,000 cells over 300 ids and 20 cards settle with the service's values in at most 7 batch calls; the pane says answers are not kept; with storage the same values and no sentence", async () => {
    const blocked = await env.build.browser.newContext();
    await blocked.addInitScript({ content: BLOCK_STORAGE });
    const open = await env.build.browser.newContext();
    try {
      const b = await openWorkbook(blocked);
      // The browser's refusal is real in the add-in's frame: the stores throw and OfficeRuntime.storage rejects.
      const refused = await b.excel.frame.evaluate(async () => {
        const names: string[] = [];
        for (const read of [() => window.localStorage, () => window.sessionStorage, () => window.indexedDB]) {
          try {
            read();
            names.push('readable');
          } catch (e) {
            names.push((e as DOMException).name);
          }
        }
        const office = (window as unknown as { OfficeRuntime: { storage: { setItem(k: string, v: string): Promise<void> } } }).OfficeRuntime.storage;
        const officeOutcome = await office.setItem('svc-test', 'x').then(
          () => 'stored',
          (e: unknown) => `rejected: ${e instanceof Error ? e.name : String(e)}`,
        );
        return { names, officeOutcome };
      });
      expect(refused.names).toEqual(['SecurityError', 'SecurityError', 'SecurityError']);
      expect(refused.officeOutcome).toMatch(/^rejected/);

      expect(b.results.filter((r) => !r.ok).map((r) => r.message)).toEqual([]);
      // ⌈300/50⌉ = 6 batch calls, plus at most one for a window split by timing.
      expect(b.batches.length).toBeLessThanOrEqual(7);
      expect(b.batches.reduce((s, l) => s + l.items, 0)).toBe(300);
      expect(b.notice).toEqual({ text: STORAGE_SENTENCE, hidden: false });

      // The service's own answer for each id.
      const direct = new ServiceClient({ baseUrl: env.stack.sandboxUrl, clientId: env.stack.account.client_id, clientSecret: env.stack.account.client_secret, rateLimitKey: 'blocked-expected' });
      const expected = await direct.valueAll(env.ids.map((id) => requestForAssetId(holdingForAssetId('asset', id))));
      const wrong: string[] = [];
      valuesOf(b.results).forEach((v, i) => {
        // Cells 0–999 go round the 300 ids; the 20 cards after them are the first 20 ids.
        const at = i < 1000 ? i % 300 : i - 1000;
        const e = expected[at]!;
        if (!e.ok) return void wrong.push(`${env.ids[at]}: direct ${e.error.message}`);
        const kind = i < 1000 ? ['MIDVALUE', 'SCORE', 'VALUATION'][i % 3] : 'ASSET';
        const mid = kind === 'MIDVALUE' ? (v as { basicValue: number }).basicValue : kind === 'VALUATION' ? ((v as unknown[][])[0]![1] as { basicValue: number }).basicValue : kind === 'ASSET' ? (v as { mid: number }).mid : undefined;
        if (kind === 'SCORE' && v !== e.value.service_score) wrong.push(`${e.value.asset_id}: score ${String(v)}`);
        if (mid !== undefined && mid !== e.value.estimated_value.mid) wrong.push(`${e.value.asset_id}: ${kind} ${String(mid)}, service ${e.value.estimated_value.mid}`);
      });
      expect(wrong).toEqual([]);
      await b.excel.close();

      // With storage: the same values, and the pane says nothing about storage.
      const o = await openWorkbook(open);
      expect(valuesOf(o.results)).toEqual(valuesOf(b.results));
      expect(o.notice).toEqual({ text: '', hidden: true });
      await o.excel.close();
    } finally {
      await blocked.close();
      await open.close();
    }
  }, 240_000);
});

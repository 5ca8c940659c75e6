import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame } from 'playwright-core';
import { ServiceClient } from '../../src/client';
import { DEMO_ACCOUNTS, startSandbox, type RunningSandbox } from '../../src/sandbox';
import { startAddinHost, type RunningAddinHost } from '../../addin/server/host';
import { holdingForAssetId, requestForAssetId } from '../../addin/src/shared/holdings';
import { realCatalogueIds } from '../../fixtures/issued-ids';
import { expectStaleCards } from './stale-cards';
import { buildForExcel, cardOf, N_A, openExcelIn, recalculate, reportRequirementSets, type ExcelBuild, type ExcelPage } from './excel-harness';

/**
 * Offline, honestly, under Microsoft's runtime: a workbook of 1,000 cells over 300 assets and
 * 20 asset cards is calculated once online; then, in a fresh runtime with the same storage
 * (a new page in the same browser profile), the add-in host is stopped after the page loaded.
 * The sandbox's clock runs two days behind, so every answer kept is past its valid_until and
 * the cells must ask the (unreachable) host again.
 */
const DAY_MS = 86_400_000;
const account = DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!;
let sandbox: RunningSandbox;
let host: RunningAddinHost;
let excelBuild: ExcelBuild;
let ids: string[];

/** A workbook open in Excel for Microsoft 365 (ExcelApi 1.16 and later: cards). */
async function openWorkbook(context: Parameters<typeof openExcelIn>[0]): Promise<ExcelPage> {
  const excel = await openExcelIn(context, host.url);
  await reportRequirementSets(excel.frame, '1.17');
  return excel;
}

function startHost(port: number): Promise<RunningAddinHost> {
  return startAddinHost({
    port,
    insecureHttp: true,
    officeJs: 'local',
    distDir: excelBuild.dist,
    service: { baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret, tier: account.tier, label: 'test sandbox', sandbox: true },
  });
}

beforeAll(async () => {
  excelBuild = await buildForExcel('offline');
  sandbox = await startSandbox({ port: 0, quiet: true, now: () => new Date(Date.now() - 2 * DAY_MS) });
  host = await startHost(0);
  ids = await realCatalogueIds(sandbox.url, account, 300);
}, 180_000);

afterAll(async () => {
  await excelBuild?.close();
  await host?.close();
  await sandbox?.close();
});

const CARDS = 20;
function workbook() {
  const kinds = ['MIDVALUE', 'SCORE', 'VALUATION'] as const;
  return [
    ...Array.from({ length: 1000 }, (_, i) => excelBuild.cell(kinds[i % 3]!, [ids[i % 300]], `Sheet1!A${i + 1}`)),
    ...Array.from({ length: CARDS }, (_, i) => excelBuild.cell('ASSET', [ids[i]], `Sheet1!B${i + 1}`)),
  ];
}

const SETTING_ITEM = '_OfficeRuntime_Storage_svc-addin:settings:use-last-known-when-offline';
const staleCountText = (frame: Frame) => frame.evaluate(() => (document.getElementById('stale-count')!.hidden ? '' : document.getElementById('stale-count')!.textContent));

describe("offline under Microsoft's runtime: stale cards, #N/A plain cells unless the user chose last known values", () => {
  it('after 1,020 cells online, a fresh runtime whose host is stopped shows stale cards and #N/A; with the setting on, last known values and their count', async () => {
    const direct = new ServiceClient({ baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret, rateLimitKey: 'offline-expected' });
    const validUntil = await Promise.all(ids.slice(0, CARDS).map(async (id) => (await direct.valuations.create(requestForAssetId(holdingForAssetId('asset', id)))).valid_until!));
    expect(Date.parse(validUntil[0]!)).toBeLessThan(Date.now());

    const context = await excelBuild.browser.newContext();
    try {
      const first = await openWorkbook(context);
      const online = await recalculate(first, workbook());
      expect(online.filter((r) => !r.ok).map((r) => r.message)).toEqual([]);
      expect(online.slice(1000).every((r) => !cardOf(r.value).text.endsWith('(stale)'))).toBe(true);
      await first.frame.waitForFunction(() => Object.keys(localStorage).filter((k) => k.startsWith('_OfficeRuntime_Storage_svc-addin:answers:')).length === 2);
      await first.close();

      // A fresh runtime on the same storage; the host goes away once the page has loaded.
      const port = Number(new URL(host.url).port);
      const second = await openWorkbook(context);
      await second.frame.waitForSelector('#use-last-known');
      expect(await second.frame.isChecked('#use-last-known')).toBe(false);
      await host.close();
      const offline = await recalculate(second, workbook());
      expectStaleCards(offline, online, validUntil, 1000, ids);
      const plain = offline.slice(0, 1000);
      expect(plain.filter((r) => r.ok)).toEqual([]);
      for (const r of plain) expect(r).toMatchObject({ ok: false, errorCode: N_A, message: expect.stringMatching(/^The valuation service is unreachable: /) });
      await second.frame.waitForFunction(() => /^20 cells show/.test(document.getElementById('stale-count')!.textContent ?? ''));
      expect(await staleCountText(second.frame)).toBe('20 cells show last known values: the valuation service cannot be reached.');

      // The user turns the setting on in the pane: kept on the machine.
      await second.frame.click('#use-last-known');
      await second.frame.waitForFunction((item) => localStorage.getItem(item) === 'on', SETTING_ITEM);
      await second.close();

      // Another fresh runtime (the host back just long enough to load the page, same origin): the setting holds.
      host = await startHost(port);
      const third = await openWorkbook(context);
      await third.frame.waitForFunction(() => (document.getElementById('use-last-known') as HTMLInputElement | null)?.checked === true);
      await host.close();
      const lastKnown = await recalculate(third, workbook());
      expect(lastKnown.slice(0, 1000)).toEqual(online.slice(0, 1000));
      expectStaleCards(lastKnown, online, validUntil, 1000, ids);
      await third.frame.waitForFunction(() => /^1,020 cells/.test(document.getElementById('stale-count')!.textContent ?? ''));
      expect(await staleCountText(third.frame)).toBe('1,020 cells show last known values: the valuation service cannot be reached.');
      await third.close();
      host = await startHost(port);
    } finally {
      await context.close();
    }
  }, 420_000);
});

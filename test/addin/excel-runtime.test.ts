import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/client';
import { HistoryDatabase, recordMonthEnd, recordRun } from '../../src/db';
import { portfolioPerformance, type DatedFlow } from '../../src/performance';
import { databaseHistory } from '../../addin/server/history-source';
import { holdingForAssetId, requestForAssetId } from '../../addin/src/shared/holdings';
import { N_A, openExcelIn, VALUE, type Cell, type ExcelPage, useExcelStack } from './excel-harness';
import { runCli, serviceEnv, tempDir } from '../reports/helpers';

/**
 * The built add-in under Microsoft's own runtime: office.js and excel-web-16.00.js from
 * @microsoft/office-js (served by the host with ADDIN_OFFICE_JS=local), loaded in chromium in
 * a frame with the host information Excel on the web gives it. Only the Excel process itself
 * is stood in for (browser-pages.ts EXCEL_BRIDGE): it hands the runtime invocations and
 * cancellations and records the results the runtime sets. Every asset id is one the sandbox
 * issued for a catalogue asset.
 */

// The firm's history database behind the host (SVC.PERFORMANCE), opened per request as addin:serve does.
const dir = tempDir('svc-addin-runtime-');
const historyFolder = join(dir, 'history');
const historyDb = new HistoryDatabase(historyFolder);
// 300 for the sheet, two more that no other test asks for (the preview test needs uncached ones).
const env = useExcelStack('runtime', 302, undefined, { history: databaseHistory(historyDb) });
afterAll(() => historyDb.close());

const cell = (name: string, args: unknown[], address?: string): Cell => env.build.cell(name, args, address);
const openExcel = (): Promise<ExcelPage> => openExcelIn(env.build.browser, env.stack.host.url);

async function batchCallsSince(before: number) {
  return (await env.stack.log()).slice(before).filter((l) => l.path === '/v1/valuations/batch');
}

describe("the add-in under Microsoft's custom-functions runtime", () => {
  it('loads office.js and excel-web-16.00.js from the host, and the runtime holds every metadata id', async () => {
    const excel = await openExcel();
    try {
      const paths = excel.requested.map((u) => new URL(u).pathname);
      expect(paths).toContain('/office-js/office.js');
      expect(paths).toContain('/office-js/excel-web-16.00.js');
      expect(excel.requested.filter((u) => !u.startsWith(env.stack.host.url))).toEqual([]);
      const associated = await excel.frame.evaluate(() => Object.keys((window as unknown as { CustomFunctions: { _association: { mappings: object } } }).CustomFunctions._association.mappings).sort());
      expect(associated).toEqual(env.build.metadata.map((f) => f.id.toUpperCase()).sort());
      // Microsoft's runtime works within the host's content-security policy (no inline script, no other origin).
      expect(excel.violations).toEqual([]);
    } finally {
      await excel.close();
    }
  });

  it("settles 1,000 cells over 300 real catalogue ids, each with the service's value for its own id, in at most 7 batch calls", async () => {
    // The multi-word brands, accents and sizes of the catalogue are among them.
    expect(env.ids.some((id) => /-S[0-9A-Z.]+$/.test(id) || /-S[0-9A-Z.]+-\d{4}$/.test(id))).toBe(true);
    const excel = await openExcel();
    try {
      const before = (await env.stack.log()).length;
      const kinds = ['MIDVALUE', 'SCORE', 'VALUATION'] as const;
      const cells = Array.from({ length: 1000 }, (_, i) => cell(kinds[i % 3]!, [env.ids[i % 300]], `Sheet1!A${i + 1}`));
      // A recalculation reaches the runtime in bursts: ten messages of 100 invocations.
      const invocationIds: number[] = [];
      for (let b = 0; b < 10; b++) invocationIds.push(...(await excel.invoke(cells.slice(b * 100, b * 100 + 100))));
      const results = await excel.results(invocationIds);
      const batches = await batchCallsSince(before);
      expect(batches.length).toBeLessThanOrEqual(7);
      expect(batches.reduce((s, l) => s + l.items, 0)).toBe(300);

      // The service's own answer for each id, asked by id directly.
      const direct = new ServiceClient({ baseUrl: env.stack.sandboxUrl, clientId: env.stack.account.client_id, clientSecret: env.stack.account.client_secret, rateLimitKey: 'runtime-expected' });
      const expected = await direct.valueAll(env.ids.map((id) => requestForAssetId(holdingForAssetId('asset', id))));
      const wrong: string[] = [];
      results.forEach((r, i) => {
        const id = env.ids[i % 300]!;
        const e = expected[i % 300]!;
        if (!r.ok || !e.ok) {
          // The service answered for another asset (the client refuses it; the cell says so): a mismatch to report, never a number.
          if (!r.ok) expect(r, `cell ${i} (${id})`).toMatchObject({ errorCode: N_A, message: expect.stringMatching(/^The service answered for another asset/) });
          wrong.push(`${id}: ${r.ok ? 'cell shows a value' : r.message} / direct: ${e.ok ? 'ok' : e.error.message}`);
          return;
        }
        const kind = cells[i]!.name;
        if (kind === 'MIDVALUE' && (r.value as { basicValue: number }).basicValue !== e.value.estimated_value.mid) wrong.push(`${id}: cell ${(r.value as { basicValue: number }).basicValue}, service ${e.value.estimated_value.mid}`);
        if (kind === 'SCORE' && r.value !== e.value.service_score) wrong.push(`${id}: score ${String(r.value)}, service ${e.value.service_score}`);
        if (kind === 'VALUATION') {
          const row = (r.value as unknown[][])[0]!;
          if (row[6] !== id) wrong.push(`${id}: the answer names ${String(row[6])}`);
          if ((row[1] as { basicValue: number }).basicValue !== e.value.estimated_value.mid) wrong.push(`${id}: row mid ${(row[1] as { basicValue: number }).basicValue}`);
        }
        if (e.value.asset_id !== id) wrong.push(`${id}: valued by id, the service answered for ${e.value.asset_id}`);
      });
      expect(wrong, `${wrong.length} cells are not the service's value for their own id`).toEqual([]);
    } finally {
      await excel.close();
    }
  });

  it('sets #VALUE! naming the argument for bad input and #N/A with a reason for what the service refuses', async () => {
    const excel = await openExcel();
    try {
      const invocationIds = await excel.invoke([
        cell('MIDVALUE', ['not an id']),
        cell('MIDVALUE', [env.ids[0], 'JPY']),
        cell('PROJECTION', [env.ids[0], 18]),
        cell('SIGNAL', ['boats', 'change_30d']),
        cell('ASSETID', ['watches', 'Rolex', 'Submariner', '126610LN', 2021]),
      ]);
      const [badId, badCurrency, badHorizon, badSegment, assetId] = await excel.results(invocationIds);
      expect(badId).toMatchObject({ ok: false, errorCode: VALUE });
      expect(badId!.message).toMatch(/^asset/);
      expect(badCurrency).toMatchObject({ ok: false, errorCode: VALUE, message: expect.stringMatching(/currency must be one of USD, EUR, GBP/) });
      expect(badHorizon).toMatchObject({ ok: false, errorCode: VALUE, message: expect.stringMatching(/horizon must be 12, 24, 36/) });
      expect(badSegment).toMatchObject({ ok: false, errorCode: VALUE, message: expect.stringMatching(/segment must be one of watches/) });
      expect(assetId).toEqual({ ok: true, value: 'SVC-WAT-ROLEX-126610LN-2021' });
    } finally {
      await excel.close();
    }
  });

  it('streams alerts: a new result on every poll, none after Excel cancels the cell', async () => {
    const excel = await openExcel();
    try {
      const [streaming] = await excel.invoke([cell('ALERTS', [])]);
      const [first] = await excel.results([streaming!]);
      expect((first!.value as unknown[][])[0]).toEqual(['severity', 'segment', 'title', 'message', 'expires_at']);
      // SVC.REFRESH polls again at once: the streaming cell gets its second result.
      await excel.results(await excel.invoke([cell('REFRESH', [1])]));
      const [twice] = await excel.resultsUpTo([streaming!], 2);
      expect(twice!.length).toBe(2);
      // Cancelled, the cell hears nothing more: a new alerts cell's first poll reaches it no longer.
      await excel.cancel([streaming!]);
      const [other] = await excel.invoke([cell('ALERTS', ['watches'])]);
      await excel.results([other!]);
      const after = await excel.frame.evaluate((id) => (window as unknown as { __resultCount(i: number): number }).__resultCount(id), streaming!);
      expect(after).toBe(2);
    } finally {
      await excel.close();
    }
  });

  it('releases a cancelled cell before its call leaves, with #N/A', async () => {
    const excel = await openExcel();
    try {
      // Invoked and cancelled in the same turn, as Excel does when a recalculation replaces a cell.
      const cancelled = await excel.frame.evaluate((id) => {
        const w = window as unknown as { __invoke(c: unknown[]): number[]; __cancel(i: number[]): void };
        const [inv] = w.__invoke([{ name: 'MIDVALUE', args: [id, null], flags: 1, address: 'Sheet1!B2' }]);
        w.__cancel([inv!]);
        return inv!;
      }, env.ids[299]);
      const [result] = await excel.results([cancelled]);
      expect(result).toMatchObject({ ok: false, errorCode: N_A, message: 'The calculation was cancelled.' });
      // A later cell proves the queue moved on; the cancelled one was never sent.
      const [later] = await excel.invoke([cell('MIDVALUE', [env.ids[298]])]);
      expect((await excel.results([later!]))[0]).toMatchObject({ ok: true });
      expect(excel.batches.length).toBe(1);
      const sent = (JSON.parse(excel.batches[0]!) as { assets: unknown[] }).assets;
      expect(sent).toEqual([requestForAssetId(holdingForAssetId('asset', env.ids[298]!))]);
    } finally {
      await excel.close();
    }
  });

  it('formula value preview: the runtime does not say it is previewing, so a preview is an ordinary, coalesced and cached evaluation', async () => {
    const excel = await openExcel();
    try {
      // What the runtime hands a function: no isInValuePreview in 1.1.110.
      const probe = await excel.frame.evaluate(async (id) => {
        const w = window as unknown as { CustomFunctions: { _association: { mappings: Record<string, (...a: unknown[]) => unknown> } }; __invoke(c: unknown[]): number[]; __results(i: number[]): Promise<unknown> };
        const mappings = w.CustomFunctions._association.mappings;
        const original = mappings.MIDVALUE!;
        let seen: Record<string, unknown> | undefined;
        mappings.MIDVALUE = (...args: unknown[]) => {
          seen = args.at(-1) as Record<string, unknown>;
          return original(...args);
        };
        await w.__results(w.__invoke([{ name: 'MIDVALUE', args: [id, null], flags: 1 }]));
        return { functionName: seen?.functionName, hasPreviewFlag: seen !== undefined && 'isInValuePreview' in seen };
      }, env.ids[300]);
      expect(probe).toEqual({ functionName: 'MIDVALUE', hasPreviewFlag: false });
      // So a preview of a cached value shows it and spends nothing; an uncached one spends the
      // coalesced call the entered formula needs, and entering it then costs nothing more.
      const before = (await env.stack.log()).length;
      const [cachedPreview] = await excel.invoke([cell('MIDVALUE', [env.ids[300]])]);
      expect((await excel.results([cachedPreview!]))[0]).toMatchObject({ ok: true });
      expect(await batchCallsSince(before)).toEqual([]);
      const [preview] = await excel.invoke([cell('MIDVALUE', [env.ids[301]])]);
      const [previewed] = await excel.results([preview!]);
      const [entered] = await excel.invoke([cell('MIDVALUE', [env.ids[301]])]);
      const [value] = await excel.results([entered!]);
      expect(value).toEqual(previewed);
      expect((await batchCallsSince(before)).map((l) => l.items)).toEqual([1]);
    } finally {
      await excel.close();
    }
  });
});

describe('=SVC.PERFORMANCE under the runtime, from the history database a month-end run recorded into', () => {
  const PORTFOLIO = 'Mbeki Collection';
  const AS_OF = '2025-02-28';
  // Recorded before the run, as earlier month-ends are; 2024-11-30 is not, so since inception has no time-weighted return.
  const EARLIER = [
    { asOf: '2024-10-31', value: 12_100, netFlows: 11_800 },
    { asOf: '2024-12-31', value: 12_350, netFlows: 0 },
    { asOf: '2025-01-31', value: 22_400, netFlows: 9_800 },
  ];
  const LEDGER = [
    'date,type,portfolio,segment,brand,model,reference,year,quantity,amount,currency,notes',
    `2024-10-08,buy,${PORTFOLIO},watches,Rolex,Datejust 41,126334,2019,1,11800,USD,`,
    `2025-01-14,buy,${PORTFOLIO},bags,Hermès,Constance 24 Epsom,CONSTANCE24,2021,1,9800,USD,a large purchase mid-month`,
    `2025-02-10,fee,${PORTFOLIO},,,,,,,150,USD,storage`,
  ];
  // The same ledger as flows, written out by hand: money in positive.
  const FLOWS: DatedFlow[] = [
    { date: '2024-10-08', amount: 11_800, kind: 'external' },
    { date: '2025-01-14', amount: 9_800, kind: 'external' },
    { date: '2025-02-10', amount: 150, kind: 'fee' },
  ];
  type Period = { twr_percent: number | null; mwr_percent: number | null; end_value: number } | null;
  let report: { summary: { money_weighted_return_percent: number | null; returns_unavailable: { time_weighted: string | null }; returns_source: string }; performance: { periods: Record<string, Period>; unavailable: Record<string, string> } };

  beforeAll(async () => {
    await historyDb.use(async (db) => {
      const run = await recordRun(db, { toolVersion: 'test', serviceUrl: env.stack.sandboxUrl, sandbox: true, command: 'test' });
      for (const m of EARLIER) await recordMonthEnd(db, { run, portfolio: PORTFOLIO, asOf: m.asOf, currency: 'USD', value: m.value, netFlows: m.netFlows, holdings: [], ledger: [] });
    });
    writeFileSync(join(dir, 'ledger.csv'), LEDGER.join('\n') + '\n');
    const out = join(dir, 'out');
    const r = await runCli(['run', join(dir, 'ledger.csv'), '--out', out, '--as-of', AS_OF, '--db', historyFolder, '--formats', 'json'], serviceEnv({ url: env.stack.sandboxUrl }));
    if (r.code !== 0) throw new Error(`the month-end run exited ${r.code}: ${r.stderr.slice(-2000)}`);
    report = JSON.parse(readFileSync(join(out, readdirSync(out).find((f) => f.startsWith('mbeki-collection-') && f.endsWith('.json'))!), 'utf8'));
  });

  it("a cell gives portfolioPerformance's figure for the recorded month-ends, time- and money-weighted; a period not covered #N/A with the report's reason", async () => {
    expect(report.summary.returns_source).toMatch(/history database/);
    const today = report.performance.periods.ytd!.end_value;
    const engine = portfolioPerformance({ asOf: AS_OF, value: today, recorded: EARLIER, flows: FLOWS, holdings: [] }).periods;
    const ytd = engine.periods.ytd!;
    expect(ytd).toMatchObject({ twr_percent: expect.any(Number), mwr_percent: expect.any(Number) });
    // Two different figures, so a measure read as the other shows; both the report's own.
    expect(ytd.twr_percent).not.toBeCloseTo(ytd.mwr_percent!, 3);
    expect(report.performance.periods.ytd).toMatchObject({ twr_percent: ytd.twr_percent, mwr_percent: ytd.mwr_percent });
    const sinceInceptionMwr = engine.periods.since_inception!.mwr_percent!;
    expect(sinceInceptionMwr).toBe(report.summary.money_weighted_return_percent);
    expect(report.summary.returns_unavailable.time_weighted).toBe('time-weighted return: not enough history: no value recorded on 2024-11-30');
    expect(report.performance.unavailable['1y']).toBe(engine.unavailable['1y']);

    const excel = await openExcel();
    try {
      const [twr, mwr, inceptionMwr, inceptionTwr, year] = await excel.results(
        await excel.invoke([
          cell('PERFORMANCE', [PORTFOLIO, 'ytd']),
          cell('PERFORMANCE', [PORTFOLIO, 'ytd', 'mwr']),
          cell('PERFORMANCE', [PORTFOLIO, 'since_inception', 'mwr']),
          cell('PERFORMANCE', [PORTFOLIO, 'since_inception']),
          cell('PERFORMANCE', [PORTFOLIO, '1y']),
        ]),
      );
      // A fraction shown as a percent: 12.3456 % is 0.123456.
      const asCell = (percentUnits: number) => ({ ok: true, value: { type: 'FormattedNumber', basicValue: Math.round(percentUnits * 1e6) / 1e8, numberFormat: '0.0%' } });
      expect(twr).toEqual(asCell(ytd.twr_percent!));
      expect(mwr).toEqual(asCell(ytd.mwr_percent!));
      expect(inceptionMwr).toEqual(asCell(sinceInceptionMwr));
      expect(inceptionTwr).toEqual({ ok: false, errorCode: N_A, message: `${PORTFOLIO}, since_inception to ${AS_OF}: ${report.summary.returns_unavailable.time_weighted}.` });
      expect(year).toEqual({ ok: false, errorCode: N_A, message: `${PORTFOLIO}, 1y to ${AS_OF}: ${report.performance.unavailable['1y']}.` });
    } finally {
      await excel.close();
    }
  });
});

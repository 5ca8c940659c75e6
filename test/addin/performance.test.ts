import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/client';
import { ledger, monthEndHoldings, monthEnds, openDatabase, type Database } from '../../src/db';
import { ledgerFlows, portfolioPerformance } from '../../src/performance';
import { PortfolioPerformanceResponse } from '../../src/wire';
import { startAddinHost, type RunningAddinHost } from '../../addin/server/host';
import { databaseHistory } from '../../addin/server/history-source';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE, DEPLOYMENT_KEY_HEADER } from '../../addin/src/shared/host-connection';
import { AddinRuntime, setRuntime } from '../../addin/src/shared/runtime';
import { clientBackend } from '../../addin/src/shared/client-backend';
import { hostReads } from '../../addin/src/shared/host-history';
import * as F from '../../addin/src/functions/functions';
import { runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from '../reports/helpers';

/**
 * =SVC.PERFORMANCE (issue 34) against a history database recorded by real month-end runs
 * (`svc-report run --db`, one process per month-end, as scheduled runs go): through the add-in
 * host over HTTP, the cell's figure is the report JSON's `performance.periods.<period>` for the
 * same portfolio and as-of; a period the history does not cover is #N/A with the report's own
 * reason; a bad period or measure #VALUE! naming the allowed ones; a portfolio the deployment key
 * may not read #N/A "not allowed …" (and so is SVC.HISTORY's). The pane's "Export report" of the
 * same portfolio reads the same database: its summary returns, month-on-month and month column are
 * the engine's over the recorded month-ends and ledger; without them it says why.
 */

/** Excel's custom-functions globals, as the functions see them in the shared runtime. */
class ExcelError {
  constructor(
    readonly code: string,
    readonly message?: string,
  ) {}
}
const globals = globalThis as unknown as Record<string, unknown>;
globals.CustomFunctions = { Error: ExcelError, ErrorCode: { invalidValue: '#VALUE!', notAvailable: '#N/A' }, associate: () => undefined };

const MONTH_ENDS = ['2025-08-31', '2025-09-30', '2025-10-31', '2025-11-30'];
const AS_OF = MONTH_ENDS.at(-1)!;
const KEY = 'deploy-key-performance-01';
const HEADER = 'date,type,portfolio,segment,brand,model,reference,year,quantity,amount,currency,notes';
const LEDGER = [
  HEADER,
  '2025-08-10,buy,Okafor Household,watches,Rolex,Datejust 41,126334,2019,1,11800,USD,',
  '2025-09-15,buy,Okafor Household,bags,Hermès,Constance 24 Epsom,CONSTANCE24,2021,1,9800,USD,',
  '2025-10-20,fee,Okafor Household,,,,,,,150,USD,storage',
  '2025-11-25,buy,Okafor Household,wine,Château Lafite Rothschild,Pauillac,,2010,12,14400,USD,a late large purchase',
  '2025-08-12,buy,Secret Client A,automobiles,Porsche,911 Carrera RS 2.7,,1973,1,540000,USD,',
].join('\n');

const dir = tempDir('svc-addin-performance-');
let sb: TestSandbox;
let db: Database;
let host: RunningAddinHost;
const auditLog = join(dir, 'audit.jsonl');

/** The JSON report the month-end run wrote for the portfolio as of AS_OF. */
function report(portfolio: string): { performance: { periods: Record<string, { twr_percent: number | null; mwr_percent: number | null; from: string } | null>; unavailable: Record<string, string> } } {
  const folder = join(dir, 'out', AS_OF);
  const slug = portfolio.toLowerCase().split(' ')[0]!;
  const file = readdirSync(folder).find((f) => f.toLowerCase().startsWith(slug) && f.endsWith('.json'));
  if (!file) throw new Error(`no JSON report for ${portfolio} in ${folder}: ${readdirSync(folder).join(', ')}`);
  return JSON.parse(readFileSync(join(folder, file), 'utf8'));
}

beforeAll(async () => {
  writeFileSync(join(dir, 'ledger.csv'), LEDGER + '\n');
  sb = await testSandbox();
  // Month by month into one embedded database, as a firm's scheduled runs go.
  for (const asOf of MONTH_ENDS) {
    const r = await runCli(['run', join(dir, 'ledger.csv'), '--out', join(dir, 'out', asOf), '--as-of', asOf, '--db', join(dir, 'db'), '--formats', 'json'], serviceEnv(sb));
    if (r.code !== 0) throw new Error(`run as of ${asOf} exited ${r.code}: ${r.stderr.slice(-2000)}`);
  }
  db = await openDatabase(join(dir, 'db'));
  // The page's token broker (sign-in.ts): a deployment-key host needs none. Set once the database is open: PGlite reads a `window` as a browser.
  globals.window = { __svcTokenBroker: { silent: async () => 'no-sign-in', interactive: async () => 'no-sign-in', user: () => undefined } };
  host = await startAddinHost({
    port: 0,
    insecureHttp: true,
    officeJs: 'local',
    service: { baseUrl: sb.url, clientId: 'demo-pro', clientSecret: 'demo-pro-secret' },
    deploymentKey: KEY,
    history: databaseHistory(db),
    portfolioAccess: { roles: {}, groups: {}, deployment_key: ['Okafor *'] },
    auditLog,
  });
  const headers = { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE, [DEPLOYMENT_KEY_HEADER]: KEY };
  setRuntime(new AddinRuntime(clientBackend(new ServiceClient({ baseUrl: sb.url, clientId: 'demo-pro', clientSecret: 'demo-pro-secret' }), hostReads(host.url, headers))));
}, 600_000);
afterAll(async () => {
  setRuntime(undefined);
  delete globals.window;
  await host?.close();
  await db?.close();
  await sb?.close();
});

const invocation = () => ({}) as CustomFunctions.CancelableInvocation;
async function cell(...args: [unknown, unknown, unknown?]): Promise<{ ok: true; value: { basicValue: number; numberFormat: string } } | { ok: false; code: string; message: string }> {
  try {
    return { ok: true, value: (await F.performance(args[0] as string, args[1] as string, (args[2] ?? null) as string, invocation())) as { basicValue: number; numberFormat: string } };
  } catch (e) {
    const err = e as ExcelError;
    return { ok: false, code: err.code, message: err.message ?? '' };
  }
}

/** The pane's "Export report" of a sheet named for a portfolio, as JSON, from the host at `base`. */
async function exportReport(base: string, portfolio: string, rows: unknown[][]): Promise<any> {
  const res = await fetch(`${base}/addin/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE, [DEPLOYMENT_KEY_HEADER]: KEY },
    body: JSON.stringify({ format: 'json', grid: [GRID_HEADER, ...rows], sheet: portfolio, first_row: 1, currency: 'USD', portfolio_name: portfolio }),
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text);
}
const GRID_HEADER = ['segment', 'brand', 'model', 'reference', 'year', 'quantity', 'purchase_price', 'purchase_date', 'currency'];
/** What Okafor Household holds after the last month-end, as a sheet lists it. */
const OKAFOR_SHEET = [
  ['watches', 'Rolex', 'Datejust 41', '126334', 2019, 1, 11800, '2025-08-10', 'USD'],
  ['bags', 'Hermès', 'Constance 24 Epsom', 'CONSTANCE24', 2021, 1, 9800, '2025-09-15', 'USD'],
  ['wine', 'Château Lafite Rothschild', 'Pauillac', '', 2010, 12, 14400, '2025-11-25', 'USD'],
];

describe('"Export report" reads the same history database (issue 34)', () => {
  it("its summary returns, month-on-month and month column rest on the portfolio's recorded month-ends and ledger", async () => {
    const r = await exportReport(host.url, 'Okafor Household', OKAFOR_SHEET);
    const all = await monthEnds(db, 'Okafor Household');
    const last = all.at(-1)!;
    expect(last.asOf).toBe(AS_OF);
    expect(r.summary.returns_source).toBe("the firm's history database");
    expect(r.method_notes.join(' ')).toContain("taken from the firm's history database");
    expect(r.summary.month_on_month).toMatchObject({ previous_as_of: AS_OF });
    expect(r.summary.month_on_month.previous_value).toBeCloseTo(last.value, 2);
    expect(r.summary.month_on_month.change).toBeCloseTo(r.summary.current_value - last.value, 1);
    // Each holding against the same asset recorded at that month-end.
    const then = new Map((await monthEndHoldings(db, 'Okafor Household', AS_OF)).map((h) => [h.assetId, h.valueMid]));
    expect(r.holdings.length).toBe(3);
    for (const h of r.holdings) {
      expect(then.has(h.asset_id), h.description).toBe(true);
      expect(h.month_on_month_change, h.description).toBeCloseTo(h.current_value - then.get(h.asset_id)!, 1);
    }
    // The engine over what the database holds: its month-ends and the ledger recorded with the last (the storage fee included, which the sheet does not show).
    const entries = await ledger(db, 'Okafor Household', AS_OF);
    expect(entries.some((e) => e.type === 'fee')).toBe(true);
    const want = portfolioPerformance({ asOf: r.as_of, value: r.summary.current_value, recorded: all.map((m) => ({ asOf: m.asOf, value: m.value })), flows: ledgerFlows(entries, () => 1).flows, holdings: [] });
    expect(r.summary.money_weighted_return_percent).toBeCloseTo(want.sinceInception.mwr_percent!, 4);
    expect(r.summary.returns_since.from).toBe('2025-08-10');
  });

  it('falls back to the holdings alone, saying why: none recorded, not allowed, no database', async () => {
    const none = await exportReport(host.url, 'Okafor Nobody', OKAFOR_SHEET);
    expect(none.summary.returns_source).toBe('this report alone (no earlier month-end recorded)');
    expect(none.summary.month_on_month).toBeNull();
    expect(none.summary.returns_unavailable.month_on_month).toBe('no earlier month-end recorded');
    // Refused before the database is asked (the same answer whether or not it is recorded), and audited with its name.
    const secret = await exportReport(host.url, 'Secret Client A', [['automobiles', 'Porsche', '911 Carrera RS 2.7', '', 1973, 1, 540000, '2025-08-12', 'USD']]);
    expect(secret.summary.returns_source).toBe('this report alone (not allowed to read the recorded history of the portfolio Secret Client A)');
    expect(secret.summary.month_on_month).toBeNull();
    const bare = await startAddinHost({ port: 0, insecureHttp: true, officeJs: 'local', service: { baseUrl: sb.url, clientId: 'demo-pro', clientSecret: 'demo-pro-secret' }, deploymentKey: KEY });
    try {
      const r = await exportReport(bare.url, 'Okafor Household', OKAFOR_SHEET);
      expect(r.summary.returns_source).toBe('this report alone (the add-in host has no history database)');
      expect(r.method_notes.join(' ')).toContain('taken from this report alone (the add-in host has no history database)');
      expect(r.summary.month_on_month).toBeNull();
    } finally {
      await bare.close();
    }
  });
});

describe('=SVC.PERFORMANCE through the host, over month-ends recorded by real runs', () => {
  it("gives the report's own figure for each covered period and both measures, as a percent", async () => {
    const periods = report('Okafor Household').performance.periods;
    let compared = 0;
    for (const period of ['mtd', 'qtd', 'since_inception'] as const) {
      for (const measure of ['twr', 'mwr'] as const) {
        const want = periods[period]![`${measure}_percent`];
        expect(want, `${period} ${measure} in the report`).toEqual(expect.any(Number));
        // The host's answer is the engine's number, exactly the report's.
        const res = await fetch(`${host.url}/addin/performance?portfolio=${encodeURIComponent('Okafor Household')}&period=${period}&measure=${measure}`, { headers: { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE, [DEPLOYMENT_KEY_HEADER]: KEY } });
        const body = PortfolioPerformanceResponse.parse(await res.json());
        expect(body).toMatchObject({ portfolio: 'Okafor Household', period, measure, as_of: AS_OF, from: periods[period]!.from, currency: 'USD' });
        expect(body.percent, `${period} ${measure}`).toBe(want);
        // The cell: a fraction formatted as a percent, like SVC.EXPECTEDROI.
        const c = await cell('Okafor Household', period.replace('_', ' ').toUpperCase(), measure === 'twr' ? null : 'MWR');
        expect(c, `${period} ${measure}`).toEqual({ ok: true, value: { type: 'FormattedNumber', basicValue: Math.round(want! * 1e6) / 1e8, numberFormat: '0.0%' } });
        compared++;
      }
    }
    expect(compared).toBe(6);
    // Three periods, three different starts: a period read as another would show.
    expect(new Set(['mtd', 'qtd', 'since_inception'].map((p) => periods[p]!.twr_percent)).size).toBe(3);
  });

  it("#N/A with the report's reason where the history does not cover the period", async () => {
    const r = report('Okafor Household').performance;
    for (const period of ['ytd', '1y', '3y']) {
      expect(r.periods[period]).toBeNull();
      const c = await cell('Okafor Household', period);
      expect(c).toEqual({ ok: false, code: '#N/A', message: `Okafor Household, ${period} to ${AS_OF}: ${r.unavailable[period]}.` });
    }
    expect(r.unavailable.ytd).toMatch(/^not enough history: the portfolio's first flow is on 2025-08-10/);
    expect(await cell('Nobody Recorded Here', 'mtd')).toMatchObject({ ok: false, code: '#N/A', message: expect.stringMatching(/^not allowed/) });
    expect(await cell('Okafor Nobody', 'mtd')).toEqual({ ok: false, code: '#N/A', message: 'no history recorded for the portfolio Okafor Nobody.' });
  });

  it('#VALUE! naming the allowed periods and measures, before the host is asked; the host refuses them too', async () => {
    expect(await cell('Okafor Household', '2y')).toEqual({ ok: false, code: '#VALUE!', message: 'period must be one of mtd, qtd, ytd, 1y, 3y, since_inception (got "2y").' });
    expect(await cell('Okafor Household', 'mtd', 'irr')).toEqual({ ok: false, code: '#VALUE!', message: 'measure must be one of twr, mwr (got "irr").' });
    expect(await cell('Okafor Household', null)).toEqual({ ok: false, code: '#VALUE!', message: 'period is required: one of mtd, qtd, ytd, 1y, 3y, since_inception.' });
    const res = await fetch(`${host.url}/addin/performance?portfolio=Okafor%20Household&period=5y`, { headers: { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE, [DEPLOYMENT_KEY_HEADER]: KEY } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({ field: 'period', message: 'period must be one of mtd, qtd, ytd, 1y, 3y, since_inception (got "5y").', allowed_values: ['mtd', 'qtd', 'ytd', '1y', '3y', 'since_inception'] });
  });

  it('a portfolio the deployment key may not read: #N/A "not allowed …" in SVC.PERFORMANCE and SVC.HISTORY, audited with its name', async () => {
    const c = await cell('Secret Client A', 'since_inception');
    expect(c).toMatchObject({ ok: false, code: '#N/A', message: expect.stringMatching(/^not allowed to read the performance of the portfolio Secret Client A/) });
    let history: unknown;
    try {
      await F.history('Secret Client A', null, null, false, invocation());
    } catch (e) {
      history = e;
    }
    expect(history).toMatchObject({ code: '#N/A', message: expect.stringMatching(/^not allowed to read the history of the portfolio Secret Client A/) });
    await host.close();
    const lines = readFileSync(auditLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.portfolio === 'Secret Client A').map((l) => [l.operation, l.status, l.error])).toEqual([
      ['report', 200, undefined],
      ['performance', 403, 'portfolio_not_allowed'],
      ['history', 403, 'portfolio_not_allowed'],
    ]);
    expect(lines.filter((l) => l.operation === 'performance' && l.status === 200).every((l) => l.portfolio === 'Okafor Household')).toBe(true);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAddinHost, type RunningAddinHost } from '../../addin/server/host';
import { databaseHistory } from '../../addin/server/history-source';
import { ADDIN_REQUEST_HEADER, ADDIN_REQUEST_HEADER_VALUE, DEPLOYMENT_KEY_HEADER } from '../../addin/src/shared/host-connection';
import { isoDateToSerial } from '../../addin/src/shared/excel-dates';
import { serveAddin } from '../../fixtures/served-addin';
import { killSpawned } from '../../fixtures/spawned';
import { openDatabase, recordMonthEnd, recordRun, type Database, type HoldingValuation } from '../../src/db';
import { HistoryResponse } from '../../src/wire';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { buildForExcel, N_A, openExcelIn, VALUE, type ExcelBuild } from './excel-harness';
import { startStack, type Stack } from './stack';

/**
 * SVC.HISTORY (issue 23): the add-in host answers GET /addin/history from the firm's history
 * database (SVC_DB_URL), behind the checks of its other routes; the function spills the
 * month-ends under Microsoft's runtime, and says why where the host has no database.
 */
const dir = mkdtempSync(join(tmpdir(), 'svc-addin-history-'));
const folder = join(dir, 'history');
const WATCH = 'SVC-WAT-ROLEX-126610LN-2021';
const KEY = 'deploy-key-history-0123';
let sandbox: RunningSandbox;
const hosts: RunningAddinHost[] = [];

const held = (row: number, assetId: string, valueMid: number): HoldingValuation => ({ row, assetId, valueMid, currency: 'USD' });

/** Two portfolios over two month-ends; both hold the watch in January, one in February. */
async function fill(db: Database): Promise<void> {
  const run = await recordRun(db, { toolVersion: 'test', serviceUrl: 'http://127.0.0.1:1', sandbox: true, command: 'test' });
  const me = (portfolio: string, asOf: string, value: number, netFlows: number, holdings: HoldingValuation[]) =>
    recordMonthEnd(db, { run, portfolio, asOf, currency: 'USD', value, netFlows, holdings, ledger: [] });
  await me('Okafor Household', '2025-01-31', 1_250_000.5, 0, [held(2, WATCH, 12_000.25), held(3, 'SVC-ART-BANKSY-X-2004', 1_238_000.25)]);
  await me('Okafor Household', '2025-02-28', 1_400_000.75, 91_500, [held(2, WATCH, 12_500.5), held(3, 'SVC-ART-BANKSY-X-2004', 1_387_500.25)]);
  await me('Lindqvist Trust', '2025-01-31', 30_000, 0, [held(2, WATCH, 11_900)]);
}

const EXPECTED = {
  key: 'Okafor Household',
  kind: 'portfolio',
  month_ends: [
    { as_of: '2025-01-31', value: 1_250_000.5, net_flows: 0, currency: 'USD' },
    { as_of: '2025-02-28', value: 1_400_000.75, net_flows: 91_500, currency: 'USD' },
  ],
};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  const db = await openDatabase(folder);
  await fill(db);
  await db.close();
}, 120_000);
afterAll(async () => {
  for (const h of hosts) await h.close();
  await sandbox?.close();
  killSpawned();
  rmSync(dir, { recursive: true, force: true });
});

async function hostWith(options: Partial<Parameters<typeof startAddinHost>[0]>): Promise<RunningAddinHost> {
  const host = await startAddinHost({ port: 0, insecureHttp: true, officeJs: 'local', service: { baseUrl: sandbox.url, clientId: 'demo-pro', clientSecret: 'demo-pro-secret' }, ...options });
  hosts.push(host);
  return host;
}

describe('GET /addin/history', () => {
  it('addin:serve with SVC_DB_URL answers a portfolio\'s month-ends and an asset\'s summed value; unknown and bad dates said so', async () => {
    const { proc, url, client } = await serveAddin(sandbox.url, dir, { SVC_DB_URL: folder });
    try {
      const portfolio = await client.get(`${url}/addin/history?key=${encodeURIComponent('Okafor Household')}`);
      expect(portfolio.status, portfolio.text).toBe(200);
      expect(HistoryResponse.parse(JSON.parse(portfolio.text))).toEqual(EXPECTED);

      const asset = await client.get(`${url}/addin/history?key=${WATCH}&to=2025-02-28`);
      expect(JSON.parse(asset.text)).toEqual({
        key: WATCH,
        kind: 'asset',
        month_ends: [
          { as_of: '2025-01-31', value: 23_900.25, net_flows: null, currency: 'USD' },
          { as_of: '2025-02-28', value: 12_500.5, net_flows: null, currency: 'USD' },
        ],
      });
      const ranged = await client.get(`${url}/addin/history?key=${encodeURIComponent('Okafor Household')}&from=2025-02-01`);
      expect(JSON.parse(ranged.text).month_ends.map((m: { as_of: string }) => m.as_of)).toEqual(['2025-02-28']);

      const unknown = await client.get(`${url}/addin/history?key=Nobody`);
      expect(unknown.status).toBe(404);
      expect(JSON.parse(unknown.text).error).toMatchObject({ type: 'no_history', message: 'no history recorded for the portfolio Nobody.' });
      const badDate = await client.get(`${url}/addin/history?key=Nobody&from=2025-02-30`);
      expect(badDate.status).toBe(400);
      expect(JSON.parse(badDate.text).error).toMatchObject({ field: 'from', message: 'from must be a date that exists, as YYYY-MM-DD.' });

      // Issue 35: a NUL (or any control character) in a parameter is a 400 naming it, never a 500 with a stack trace in the log.
      for (const [query, field] of [['key=Okafor%00Household', 'key'], ['key=Okafor&to=2025-02-28%00', 'to'], ['key=Okafor&x%01y=1', 'x\\u0001y'], ['key=%1b%5b2J', 'key']] as const) {
        const res = await client.get(`${url}/addin/history?${query}`);
        expect(res.status, query).toBe(400);
        expect(JSON.parse(res.text).error, query).toMatchObject({ type: 'validation_error', field, message: expect.stringMatching(/holds a control character \(U\+00[01][0-9A-F]\)/) });
      }
      const nulApi = await client.get(`${url}/api/v1/segments?x=%00`);
      expect(nulApi.status).toBe(400);
      expect(proc.output).not.toMatch(/\n\s+at /);
      expect(proc.output).not.toMatch(/internal_error| 500/);

      // Issue 34: the host holds the embedded folder only while a request reads it, never for its
      // whole life: between requests, with the host still serving, another process opens it at once.
      const between = await openDatabase(folder, { waitMs: 0 });
      await between.close();
      const after = await client.get(`${url}/addin/history?key=${encodeURIComponent('Okafor Household')}`);
      expect(after.status, after.text).toBe(200);

    } finally {
      client.close();
      proc.child.kill('SIGTERM');
      expect(await proc.exit).toBe(0);
    }
  }, 180_000);

  it('without a database: a 404 saying the host has none; sign-in and the add-in header required as elsewhere', async () => {
    const host = await hostWith({ deploymentKey: KEY });
    const headers = { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE, [DEPLOYMENT_KEY_HEADER]: KEY };
    const none = await fetch(`${host.url}/addin/history?key=Okafor`, { headers });
    expect(none.status).toBe(404);
    expect(((await none.json()) as { error: { type: string; message: string } }).error).toMatchObject({ type: 'no_history_database', message: expect.stringMatching(/no history database configured \(SVC_DB_URL\)/) });
    // Refused exactly as the API proxy refuses the same request: without the deployment key, and without the add-in's header.
    const answer = async (path: string, h: Record<string, string>) => {
      const res = await fetch(`${host.url}${path}`, { headers: h });
      return { status: res.status, type: ((await res.json()) as { error: { type: string } }).error.type };
    };
    const refused: Record<string, string>[] = [{ [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE }, { [ADDIN_REQUEST_HEADER]: ADDIN_REQUEST_HEADER_VALUE, [DEPLOYMENT_KEY_HEADER]: 'deploy-key-wrong-9999' }, { [DEPLOYMENT_KEY_HEADER]: KEY }];
    for (const h of refused) {
      const history = await answer('/addin/history?key=Okafor', h);
      expect(history.status).toBeGreaterThanOrEqual(401);
      expect(history).toEqual(await answer('/api/v1/segments', h));
    }
  });
});

describe('SVC.HISTORY under Microsoft\'s runtime', () => {
  let build: ExcelBuild;
  let db: Database;
  let withDb: Stack;
  let withoutDb: Stack;
  beforeAll(async () => {
    build = await buildForExcel('history');
    db = await openDatabase(folder);
    withDb = await startStack({ host: { distDir: build.dist, history: databaseHistory(db) } });
    withoutDb = await startStack({ host: { distDir: build.dist } });
  }, 240_000);
  afterAll(async () => {
    await withDb?.close();
    await withoutDb?.close();
    await db?.close();
    await build?.close();
  });

  const date = (iso: string) => ({ type: 'FormattedNumber', basicValue: isoDateToSerial(iso), numberFormat: 'yyyy-mm-dd' });
  const usd = (n: number) => ({ type: 'FormattedNumber', basicValue: n, numberFormat: '[$$-en-US]#,##0' });

  it('spills date, value and net flows per month-end; an asset summed; dates as Excel dates or text; bad dates #VALUE!; unknown #N/A', async () => {
    const excel = await openExcelIn(build.browser, withDb.host.url);
    try {
      const ids = await excel.invoke([
        build.cell('HISTORY', ['Okafor Household', null, null, true]),
        build.cell('HISTORY', [WATCH, isoDateToSerial('2025-02-01')]),
        build.cell('HISTORY', ['Okafor Household', '2025-01-01', '2025-01-31']),
        build.cell('HISTORY', ['Okafor Household', 'last March']),
        build.cell('HISTORY', ['Nobody']),
      ]);
      const [portfolio, asset, january, badDate, unknown] = await excel.results(ids);
      expect(portfolio).toEqual({
        ok: true,
        value: [
          ['as_of', 'value', 'net_flows'],
          [date('2025-01-31'), usd(1_250_000.5), usd(0)],
          [date('2025-02-28'), usd(1_400_000.75), usd(91_500)],
        ],
      });
      expect(asset).toEqual({ ok: true, value: [[date('2025-02-28'), usd(12_500.5), '']] });
      expect(january).toEqual({ ok: true, value: [[date('2025-01-31'), usd(1_250_000.5), usd(0)]] });
      expect(badDate).toMatchObject({ ok: false, errorCode: VALUE, message: expect.stringMatching(/^from must be a date: an Excel date from 1900-03-01 on, or text YYYY-MM-DD \(got "last March"\)/) });
      expect(unknown).toMatchObject({ ok: false, errorCode: N_A, message: 'no history recorded for the portfolio Nobody.' });
    } finally {
      await excel.close();
    }
  }, 120_000);

  it('#N/A with the reason where the host has no history database', async () => {
    const excel = await openExcelIn(build.browser, withoutDb.host.url);
    try {
      const [result] = await excel.results(await excel.invoke([build.cell('HISTORY', ['Okafor Household'])]));
      expect(result).toMatchObject({ ok: false, errorCode: N_A, message: expect.stringMatching(/^The add-in host has no history database configured \(SVC_DB_URL\)/) });
    } finally {
      await excel.close();
    }
  }, 120_000);
});

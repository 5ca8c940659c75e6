import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/client';
import { DEMO_ACCOUNTS } from '../../src/sandbox';
import { SEGMENT_IDS } from '../../src/wire';
import { AddinRuntime, setRuntime } from '../../addin/src/shared/runtime';
import { clientBackend } from '../../addin/src/shared/client-backend';
import type { AccountBudget } from '../../addin/contract/refresh-budget';
import { estimateRefresh, needsConfirmation, planRefresh, DEFAULT_CONFIRM_PERCENT } from '../../addin/src/taskpane/budget-plan';
import type { SheetModel } from '../../addin/src/taskpane/workbook-model';
import { calculateSheet, refreshSheet } from '../../fixtures/calculate-sheet';
import type { SandboxLogLine, Stack } from './stack';
import { realCatalogueIds } from '../../fixtures/issued-ids';
import { spawnSandbox } from '../../bench/support/sandbox-process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startAddinHost } from '../../addin/server/host';

/** A sheet model from rows of cells ('=…' a formula), as Excel's used range gives it. */
function sheet(name: string, rows: unknown[][]): SheetModel {
  const width = Math.max(...rows.map((r) => r.length));
  const grid = rows.map((r) => Array.from({ length: width }, (_, c) => r[c] ?? ''));
  return { name, rowIndex: 0, columnIndex: 0, formulas: grid, values: grid.map((r) => r.map((v) => (typeof v === 'string' && v.startsWith('=') ? 0 : v))), numberFormat: grid.map((r) => r.map(() => 'General')) };
}

const syntheticId = (i: number) => `SVC-WAT-BRAND${i}-MODEL${i % 7}-2020`;

/** N MIDVALUE cells over D assets (cells cycle through the assets), ids in column A. */
function midValueSheet(n: number, d: number, currency?: string): SheetModel {
  const rows: unknown[][] = [['asset', 'mid']];
  for (let i = 0; i < n; i++) rows.push([syntheticId(i % d), `=SVC.MIDVALUE(A${i + 2}${currency ? `,"${currency}"` : ''})`]);
  return sheet('Sheet1', rows);
}

describe('the refresh budget counts what the runtime will send', () => {
  it.each([
    [1, 1],
    [50, 50],
    [51, 51],
    [1_000, 300],
    [5_000, 2_000],
    [20_000, 4_321],
  ])('%i cells over %i assets: ⌈D/50⌉ batch calls', (n, d) => {
    const plan = planRefresh([midValueSheet(n, d)]);
    expect(plan).toMatchObject({ cells: n, distinct: d, valuations: { USD: d }, batchCalls: Math.ceil(d / 50), singleCalls: 0, calls: Math.ceil(d / 50), unreadable: 0 });
  });

  it('keeps currencies apart, shares SCORE with MIDVALUE, counts ranges cell by cell and other operations one call per distinct request', () => {
    const rows: unknown[][] = [['asset']];
    for (let i = 0; i < 120; i++) rows.push([syntheticId(i), `=SVC.MIDVALUE(A${i + 2})`, `=SVC.MIDVALUE($A${i + 2}, "eur")`, `=SVC.SCORE(A${i + 2})`, `=IF(B${i + 2}>0,SVC.FACTORS(A${i + 2}),"")`]);
    rows.push(['', '=SVC.MIDVALUE(A2:A61, "GBP")', '=SVC.SIGNAL("Watches","change_30d")', '=SVC.SIGNAL("WAT","momentum")', '=SVC.SEGMENT("wine","1_year")']);
    rows.push(['', '=SVC.MIDVALUE(CONCAT("SVC-", A2))', '=SVC.REFRESH()', '=SUM(B2:B121)', '="SVC.MIDVALUE(A2)"', '=SVC.MIDVALUE("not an id")']);
    const plan = planRefresh([sheet('Sheet1', rows), sheet('Other sheet', [['=SVC.MIDVALUE(Sheet1!A2)', "=SVC.ASSET('Other sheet'!A3)"], [''], [syntheticId(500)]])]);
    expect(plan.valuations).toEqual({ USD: 120, EUR: 120, GBP: 60 });
    expect(plan.batchCalls).toBe(3 + 3 + 2);
    // 120 breakdowns, one signals call for watches (two spellings), one segment, one card, one unreadable argument.
    expect(plan.singleCalls).toBe(120 + 1 + 1 + 1 + 1);
    expect(plan.unreadable).toBe(1);
    expect(plan.calls).toBe(plan.batchCalls + plan.singleCalls);
    expect(plan.cells).toBe(120 * 4 + 4 + 3 + 2);
  });

  it('estimates time at the pace and the share of what is left today; asks above the threshold, not below', () => {
    const account: AccountBudget = { tier: 'starter', per_minute: 60, minute_ms: 60_000, pace_ms: 1_015, round_trip_ms: 200, day_limit: 5_000, day_remaining: 4_000, day_resets_at: null, user_day_remaining: null, batch_size: 50 };
    const plan = planRefresh([midValueSheet(20_000, 5_000)]);
    const e = estimateRefresh(plan, account);
    expect(e).toMatchObject({ calls: 100, dayRemaining: 4_000, exceedsDay: false });
    expect(e.seconds).toBeCloseTo((99 * 1_015 + 200) / 1000, 6);
    expect(e.dayShare).toBeCloseTo(100 / 4_000, 9);
    expect(needsConfirmation(e, DEFAULT_CONFIRM_PERCENT)).toBe(false); // 2.5% of what is left
    expect(needsConfirmation(e, 2)).toBe(true);
    expect(needsConfirmation(estimateRefresh(plan, { ...account, day_remaining: 900 }), DEFAULT_CONFIRM_PERCENT)).toBe(true); // 11.1%
    expect(needsConfirmation(estimateRefresh(plan, { ...account, day_remaining: 1_000 }), DEFAULT_CONFIRM_PERCENT)).toBe(false); // exactly 10%
    // A user's own cap is what is left for them.
    expect(estimateRefresh(plan, { ...account, user_day_remaining: 50 })).toMatchObject({ dayRemaining: 50, exceedsDay: true });
    expect(needsConfirmation(estimateRefresh(plan, { ...account, user_day_remaining: 50 }), 100)).toBe(true);
  });
});

describe('estimate against a measured refresh (Starter-like account, 3-s windows)', () => {
  let stack: Stack;
  let ids: string[];
  const MINUTE_MS = 3_000;

  beforeAll(async () => {
    // The sandbox in its own process, as the service is: sharing this process's event loop, its
    // work would delay the gate's timers and lengthen the measured refresh (ratio 0.80 at load 15).
    const dir = await mkdtemp(path.join(tmpdir(), 'svc-budget-'));
    const logFile = path.join(dir, 'sandbox.jsonl');
    const sandbox = await spawnSandbox(['--minute-ms', String(MINUTE_MS), '--log', logFile]);
    const account = DEMO_ACCOUNTS.find((a) => a.tier === 'starter')!;
    const host = await startAddinHost({ port: 0, insecureHttp: true, service: { baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret, tier: 'starter', limits: { minuteMs: MINUTE_MS } } });
    stack = {
      sandboxUrl: sandbox.url,
      host,
      account: { client_id: account.client_id, client_secret: account.client_secret, tier: 'starter' },
      log: async () => (await readFile(logFile, 'utf8').catch(() => '')).split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as SandboxLogLine),
      close: async () => {
        await host.close();
        await sandbox.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
    // Ids from the enterprise account on the same sandbox, so the starter account's budget is whole.
    ids = await realCatalogueIds(stack.sandboxUrl, DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!, 300);
  });
  afterAll(async () => {
    setRuntime(undefined);
    await stack?.close();
  });

  it('the host says the tier, its pace and today’s budget behind the same checks as its other routes', async () => {
    expect((await fetch(`${stack.host.url}/addin/budget`)).status).toBe(403);
    const res = await fetch(`${stack.host.url}/addin/budget`, { headers: { 'x-svc-addin': '1' } });
    expect(res.status).toBe(200);
    const b = (await res.json()) as AccountBudget;
    expect(b).toMatchObject({ tier: 'starter', per_minute: 60, minute_ms: MINUTE_MS, day_limit: 5_000, batch_size: 50, user_day_remaining: null });
    expect(b.pace_ms).toBeGreaterThan(MINUTE_MS / 60);
    expect(b.pace_ms).toBeLessThan((MINUTE_MS / 60) * 1.1);
  });

  it('with a deployment key the route needs it, and a user’s daily cap is what is left for that user', async () => {
    const keyed = await startAddinHost({
      port: 0,
      insecureHttp: true,
      deploymentKey: 'budget-key-2026',
      perUserDailyCap: 120,
      service: { baseUrl: stack.sandboxUrl, clientId: stack.account.client_id, clientSecret: stack.account.client_secret, tier: 'starter', limits: { minuteMs: MINUTE_MS } },
    });
    try {
      expect((await fetch(`${keyed.url}/addin/budget`, { headers: { 'x-svc-addin': '1' } })).status).toBe(403);
      const res = await fetch(`${keyed.url}/addin/budget`, { headers: { 'x-svc-addin': '1', 'x-addin-deployment-key': 'budget-key-2026' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ tier: 'starter', user_day_remaining: 120 });
    } finally {
      await keyed.close();
    }
  });

  // How close the time estimate comes to a measured refresh is a benchmark (bench/refresh-budget.ts,
  // ratio in the README): a wall-clock ratio asserted here failed on a loaded machine (0.72).
  it('the calls a refresh makes are exactly those the estimate counted', async () => {
    // 300 assets in three currencies (900 valuations: 18 batch calls), 40 breakdowns and the ten segments' signals: 68 calls.
    const model = refreshSheet(ids, SEGMENT_IDS, 40);
    const plan = planRefresh([model]);
    expect(plan).toMatchObject({ batchCalls: 18, singleCalls: 40 + SEGMENT_IDS.length });
    const account = (await (await fetch(`${stack.host.url}/addin/budget`, { headers: { 'x-svc-addin': '1' } })).json()) as AccountBudget;
    const estimate = estimateRefresh(plan, account);
    expect(estimate.dayShare).toBeCloseTo(plan.calls / 5_000, 9);

    // The refresh: every cell calculated by the add-in's own functions through a runtime whose
    // client talks to the host as the pane's does (the minute window compressed like the host's).
    const client = new ServiceClient({ baseUrl: `${stack.host.url}/api/v1`, headers: { 'x-svc-addin': '1' }, tokenProvider: async () => undefined, limits: { minuteMs: MINUTE_MS }, rateLimitKey: 'budget-refresh' });
    setRuntime(new AddinRuntime(clientBackend(client)));
    const before = (await stack.log()).length;
    const results = await calculateSheet(model);
    expect(results.filter((r) => r instanceof Error || (typeof r === 'object' && r !== null && 'code' in r))).toEqual([]);

    const spent = (await stack.log()).slice(before).filter((l) => l.client_id === stack.account.client_id && !l.path.startsWith('/v1/auth'));
    expect(spent.filter((l) => l.path === '/v1/valuations/batch')).toHaveLength(plan.batchCalls);
    expect(spent).toHaveLength(plan.calls);
    expect(estimate.seconds).toBeGreaterThan(0);
  });
});

import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisProcess } from '../../fixtures/redis-server';
import { close, monthEnds, openDatabase } from '../../src/db';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { killAll, svcReport as spawnReport } from './support/processes';

/**
 * Issue 34, "one performance engine", on the queue: an embedded history database holding two
 * recorded month-ends of two portfolios (written by two one-process runs), then the third month
 * with `run --queue` and a `svc-report worker` given that database. Each portfolio's JSON report
 * (the worker's) and the consolidated one (the coordinating run's, which is given no database)
 * name the database as `returns_source`; their month-on-month is against the recorded month-end,
 * read back with the database's own query; the consolidated figures are the sums of the
 * portfolios'.
 */

const MONTHS = ['2025-01-31', '2025-02-28', '2025-03-31'] as const;
const PORTFOLIOS = ['Ashford', 'Brennan'] as const;
const LEDGER = [
  'date,type,portfolio,segment,brand,model,reference,year,quantity,amount,currency,notes',
  '2025-01-10,buy,Ashford,watches,Rolex,Datejust 41,126334,2019,1,11800,USD,',
  '2025-02-12,buy,Ashford,bags,Hermès,Constance 24 Epsom,CONSTANCE24,2021,1,9800,USD,',
  '2025-03-05,fee,Ashford,,,,,,,150,USD,storage',
  '2025-01-15,buy,Brennan,art,Yayoi Kusama,Pumpkin (Yellow),,1998,1,52000,USD,',
  '2025-02-03,buy,Brennan,cards,Pokémon,Charizard Base Set Holo Unlimited PSA 8,BS4-UNL-PSA8,1999,2,9000,USD,',
  '2025-03-20,sell,Brennan,cards,Pokémon,Charizard Base Set Holo Unlimited PSA 8,BS4-UNL-PSA8,1999,1,4700,USD,one of two',
].join('\n');
const DB_SOURCE = "the firm's history database";

const dir = mkdtempSync(join(tmpdir(), 'svc-queue-history-'));
const db = join(dir, 'db');
const secret = `queue-history-${randomUUID()}`;
const CLIENT = 'queue-history-account';
let sandbox: RunningSandbox;
let redis: RedisProcess;
/** The value each portfolio's month-end before the queued one was recorded with, read back from the database. */
const recorded = new Map<string, number>();

// SVC_DB_URL is `off` for the whole suite (test/support/temp-root.ts): the database is given where it is meant.
const svcReport = (args: string[]) => spawnReport(args, { SVC_BASE_URL: sandbox.url, SVC_CLIENT_ID: CLIENT, SVC_CLIENT_SECRET: secret, SVC_SANDBOX: '1', TMPDIR: tmpdir() });
const report = (stem: string) => JSON.parse(readFileSync(join(dir, 'queued', `${stem}-${MONTHS[2]}.json`), 'utf8'));

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, accounts: [{ client_id: CLIENT, client_secret: secret, tier: 'pro', per_minute: 100_000, per_day: 1_000_000 }] });
  redis = await startRedis();
  writeFileSync(join(dir, 'ledger.csv'), `${LEDGER}\n`);
  // The two month-ends before: recorded by one-process runs, as a firm's scheduled month-ends are.
  for (const asOf of MONTHS.slice(0, 2)) {
    const run = svcReport(['run', join(dir, 'ledger.csv'), '--out', join(dir, asOf), '--as-of', asOf, '--tier', 'pro', '--formats', 'json', '--db', db]);
    if ((await run.exit) !== 0) throw new Error(`run as of ${asOf}: ${run.output.slice(-2000)}`);
  }
  const opened = await openDatabase(db);
  try {
    for (const p of PORTFOLIOS) recorded.set(p, (await monthEnds(opened, p, { from: MONTHS[1], to: MONTHS[1] }))[0]!.value);
  } finally {
    await close(opened);
  }
}, 240_000);

afterAll(async () => {
  killAll();
  await sandbox?.close();
  await redis?.stop();
});

describe('run --queue reads the history database through its workers', () => {
  it("each portfolio's and the consolidated report's returns rest on the recorded month-ends; the consolidated figures are the portfolios' sums", async () => {
    const worker = svcReport(['worker', '--out', dir, '--redis', redis.url, '--tier', 'pro', '--db', db]);
    await worker.said(/Worker ready/);
    const run = svcReport(['run', join(dir, 'ledger.csv'), '--out', join(dir, 'queued'), '--queue', '--redis', redis.url, '--tier', 'pro', '--as-of', MONTHS[2], '--formats', 'json']);
    expect(await run.exit, run.output).toBe(0);
    worker.child.kill('SIGTERM');
    await worker.exit;

    const parts = PORTFOLIOS.map((p) => report(p.toLowerCase()));
    for (const [i, p] of PORTFOLIOS.entries()) {
      const r = parts[i];
      expect(r.summary.returns_source, p).toBe(DB_SOURCE);
      expect(r.summary.month_on_month.previous_as_of).toBe(MONTHS[1]);
      expect(r.summary.month_on_month.previous_value).toBeCloseTo(recorded.get(p)!, 2);
      expect(r.summary.month_on_month.return_percent).toBe(r.performance.periods.mtd.twr_percent);
    }
    const c = report('consolidated');
    const sum = (f: (r: any) => number) => parts.reduce((s, r) => s + f(r), 0);
    expect(c.summary.returns_source).toBe(DB_SOURCE);
    expect(c.method_notes.join(' ')).toContain(`taken from ${DB_SOURCE}`);
    expect(c.summary.month_on_month.previous_as_of).toBe(MONTHS[1]);
    expect(c.summary.month_on_month.previous_value).toBeCloseTo([...recorded.values()].reduce((a, b) => a + b, 0), 1);
    expect(c.summary.current_value).toBeCloseTo(sum((r) => r.summary.current_value), 1);
    expect(c.summary.month_on_month.change).toBeCloseTo(sum((r) => r.summary.month_on_month.change), 1);
    // Its rows carry their own portfolio's month column, from the same month-end.
    expect(c.holdings.map((h: any) => [h.portfolio, h.row, h.month_on_month_change])).toEqual(parts.flatMap((r) => r.holdings.map((h: any) => [h.portfolio, h.row, h.month_on_month_change])));
    expect(c.holdings.some((h: any) => h.month_on_month_change !== null)).toBe(true);
    // The since-inception returns come from the ledger and the recorded month-ends, not from what is held alone.
    expect(c.summary.time_weighted_return_percent).not.toBeNull();
  }, 240_000);
});

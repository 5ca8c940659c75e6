import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { close, monthEnds, openDatabase } from '../../src/db';
import { startPostgres, type PostgresProcess } from '../../fixtures/postgres-server';
import { runCli, serviceEnv, tempDir, testSandbox, type TestSandbox } from '../reports/helpers';
import { expectedPeriods, type Flow } from './independent';
import { flowsOf, ledgerCsv, MONTH_ENDS, PORTFOLIOS } from './ledger-fixture';

/**
 * The newcomer of issue 34, in a ledger file of its own: a small purchase early in March 2025 and
 * a large one on the 25th (the case plain Modified Dietz inflates), then held.
 */
const NEWCOMER = 'Dunmore';
const NEWCOMER_CSV = [
  'date,type,portfolio,segment,brand,model,reference,year,quantity,amount,currency,notes',
  '2025-03-04,buy,Dunmore,bags,Hermès,Constance 24 Epsom,CONSTANCE24,2021,1,9500,USD,first purchase',
  '2025-03-25,buy,Dunmore,art,Yayoi Kusama,Pumpkin (Yellow),,1998,1,61000,USD,the large one',
].join('\n') + '\n';
const NEWCOMER_FLOWS: Flow[] = [
  { date: '2025-03-04', amount: 9500, type: 'buy' },
  { date: '2025-03-25', amount: 61000, type: 'buy' },
];
const ALL = [...PORTFOLIOS, NEWCOMER];
const flowsOfAny = (p: string): Flow[] => (p === NEWCOMER ? NEWCOMER_FLOWS : flowsOf(p));

/**
 * Issue 23, end to end: one ledger of three portfolios, run month by month through the command
 * (a process per month, as a firm's scheduled runs go) against the sandbox as of each of 25
 * month-ends, recording into the embedded database and, side by side, into a real PostgreSQL
 * server. The 25th report's periods equal a computation from the ledger and the recorded
 * month-end values that shares no code with the tool, months split at large flows (issue 34).
 */
describe('a ledger run month by month into the history database', () => {
  let sb: TestSandbox;
  let pg: PostgresProcess;
  let pgUrl: string;
  const dir = tempDir('svc-history-');
  const ledger = join(dir, 'ledger.csv');
  const newcomer = join(dir, 'newcomer.csv');
  const embedded = join(dir, 'db');
  const slug = (p: string, asOf: string) => `${p.toLowerCase()}-${asOf}.json`;
  const report = (where: string, p: string, asOf: string) => JSON.parse(readFileSync(join(dir, where, asOf, slug(p, asOf)), 'utf8'));
  const run = (asOf: string, db: string, where: string) => runCli(['run', ledger, newcomer, '--out', join(dir, where, asOf), '--as-of', asOf, '--db', db, '--formats', 'json'], serviceEnv(sb));
  /** The month-ends a portfolio has a report for: from its first month-end holding something. */
  const held = (p: string) => MONTH_ENDS.filter((m) => m >= (flowsOfAny(p).map((f) => f.date).sort()[0] ?? ''));

  beforeAll(async () => {
    writeFileSync(ledger, ledgerCsv());
    writeFileSync(newcomer, NEWCOMER_CSV);
    sb = await testSandbox();
    pg = await startPostgres();
    pgUrl = await pg.newDatabase();
    // Month by month, as a firm's scheduled runs would go; the two databases in step.
    for (const asOf of MONTH_ENDS) {
      const [a, b] = await Promise.all([run(asOf, embedded, 'embedded'), run(asOf, pgUrl, 'server')]);
      for (const r of [a, b]) if (r.code !== 0) throw new Error(`run as of ${asOf} exited ${r.code}: ${r.stderr.slice(-2000)}`);
    }
  }, 600_000);
  afterAll(async () => {
    await sb?.close();
    await pg?.stop();
  });

  it('gives the 25th month the periods an independent computation gives, within 0.01 percentage points', () => {
    const asOf = MONTH_ENDS.at(-1)!;
    for (const p of ALL) {
      const values = new Map(held(p).map((m) => [m, report('embedded', p, m).summary.current_value as number]));
      const expected = expectedPeriods(asOf, values, flowsOfAny(p));
      const periods = report('embedded', p, asOf).performance.periods;
      for (const key of ['mtd', 'qtd', 'ytd', '1y', '3y', 'since_inception']) {
        const want = expected[key];
        if (!want) {
          expect(periods[key], `${p} ${key}`).toBeNull();
          continue;
        }
        const got = periods[key];
        expect(got.from, `${p} ${key} from`).toBe(want.from);
        expect(Math.abs(got.twr_percent - want.twr_percent), `${p} ${key} twr ${got.twr_percent} vs ${want.twr_percent}`).toBeLessThan(0.01);
        expect(Math.abs(got.mwr_percent - want.mwr_percent), `${p} ${key} mwr ${got.mwr_percent} vs ${want.mwr_percent}`).toBeLessThan(0.01);
        expect(got.start_value).toBeCloseTo(want.start_value, 1);
        expect(got.end_value).toBeCloseTo(want.end_value, 1);
        expect(got.net_flows).toBeCloseTo(want.net_flows, 1);
      }
      // Two years of history: every period but three years is there.
      expect(periods['3y']).toBeNull();
      expect(periods['1y']).not.toBeNull();
      expect(report('embedded', p, asOf).value_history).toHaveLength(held(p).length);
    }
  });

  it("splits the newcomer's March at the large purchase on the 25th, as worked out by hand", () => {
    const march = report('embedded', NEWCOMER, '2025-03-31');
    const value = march.summary.current_value as number;
    // Book value before the 25th: the 9 500 paid on the 4th; 61 000 is more than 10 % of it, so
    // March splits there. 4 → 25 March: 9 500 → 9 500 (nothing is valued between month-ends): 0 %.
    // 25 → 31 March: 70 500 → the month-end value V: V / 70 500 − 1. Since inception = March.
    const byHand = (value / 70_500 - 1) * 100;
    expect(march.performance.periods.since_inception.twr_percent).toBeCloseTo(byHand, 4);
    // Plain Modified Dietz over March (27 days from the 4th; the 25th is day 21, weight 6/27) would
    // divide the same gain by 9 500 + 61 000 × 6/27 = 23 055.56 instead of 70 500.
    const plain = ((value - 70_500) / (9_500 + (61_000 * 6) / 27)) * 100;
    expect(Math.abs(byHand - plain), `V = ${value}`).toBeGreaterThan(0.1);
    // April on: the newcomer's later months link to it (the 25th month's periods are checked above).
    expect(report('embedded', NEWCOMER, '2025-04-30').performance.periods.mtd).not.toBeNull();
  });

  it('shows each sale, not a loss: realised gains first in, first out', () => {
    const r = report('embedded', 'Castellane', MONTH_ENDS.at(-1)!);
    // 8 bottles sold for 11,200: the first lot of 6 (cost 7,300) and 2 of the second (2 × 7,900 / 6).
    const lines = r.realised_gain.lines.filter((l: { sold: string }) => l.sold === '2025-08-08');
    expect(lines.map((l: { quantity: number }) => l.quantity)).toEqual([6, 2]);
    expect(lines.reduce((s: number, l: { cost: number }) => s + l.cost, 0)).toBeCloseTo(7300 + (2 * 7900) / 6, 2);
    expect(lines.reduce((s: number, l: { proceeds: number }) => s + l.proceeds, 0)).toBeCloseTo(11200, 2);
    // What is left: 4 bottles of the second lot.
    const wine = r.holdings.filter((h: { segment: string }) => h.segment === 'wine');
    expect(wine.map((h: { quantity: number }) => h.quantity)).toEqual([4]);
  });

  it('records each month once per portfolio, with the values the reports show, on both databases', async () => {
    for (const target of [embedded, pgUrl]) {
      const db = await openDatabase(target);
      try {
        for (const p of ALL) {
          const recorded = await monthEnds(db, p);
          expect(recorded.map((m) => m.asOf)).toEqual(held(p));
          for (const m of recorded) expect(m.value).toBeCloseTo(report('embedded', p, m.asOf).summary.current_value, 2);
        }
      } finally {
        await close(db);
      }
    }
  });

  it("every month's report on both databases: the summary's returns are the since-inception period's, month-on-month the recorded month-end's, without --previous", async () => {
    for (const [where, target] of [['embedded', embedded], ['server', pgUrl]] as const) {
      const db = await openDatabase(target);
      try {
        for (const p of ALL) {
          const recorded = await monthEnds(db, p);
          held(p).forEach((asOf, i) => {
            const r = report(where, p, asOf);
            const si = r.performance.periods.since_inception;
            expect(r.summary.money_weighted_return_percent, `${where} ${p} ${asOf}`).toBe(si?.mwr_percent ?? null);
            expect(r.summary.time_weighted_return_percent, `${where} ${p} ${asOf}`).toBe(si?.twr_percent ?? null);
            if (i === 0) {
              expect(r.summary.month_on_month, `${where} ${p} ${asOf}`).toBeNull();
              return;
            }
            const before = recorded.find((m) => m.asOf === held(p)[i - 1])!;
            expect(r.summary.returns_source, `${where} ${p} ${asOf}`).toBe("the firm's history database");
            expect(r.summary.month_on_month, `${where} ${p} ${asOf}`).toMatchObject({ previous_as_of: before.asOf, return_percent: r.performance.periods.mtd.twr_percent });
            expect(r.summary.month_on_month.previous_value, `${where} ${p} ${asOf}`).toBeCloseTo(before.value, 2);
          });
        }
      } finally {
        await close(db);
      }
    }
  });

  it('writes the same reports with PostgreSQL as with the embedded database', () => {
    for (const p of ALL) {
      for (const asOf of [held(p)[0]!, MONTH_ENDS[12]!, MONTH_ENDS.at(-1)!]) {
        expect(readFileSync(join(dir, 'server', asOf, slug(p, asOf)), 'utf8')).toBe(readFileSync(join(dir, 'embedded', asOf, slug(p, asOf)), 'utf8'));
      }
    }
  });

  it('re-running a month replaces its record: the same database and identical files', async () => {
    const asOf = MONTH_ENDS.at(-1)!;
    const snapshot = async () => {
      const db = await openDatabase(embedded);
      try {
        return await Promise.all(ALL.map((p) => monthEnds(db, p)));
      } finally {
        await close(db);
      }
    };
    const before = await snapshot();
    const again = await run(asOf, embedded, 'rerun');
    expect(again.code, again.stderr).toBe(0);
    expect(await snapshot()).toEqual(before);
    for (const p of ALL) expect(readFileSync(join(dir, 'rerun', asOf, slug(p, asOf)), 'utf8')).toBe(readFileSync(join(dir, 'embedded', asOf, slug(p, asOf)), 'utf8'));
  }, 60_000);
});

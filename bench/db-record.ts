/**
 * Recording a month-end into the history database (issue 23): 1,000 portfolios × 50 holdings
 * (and a 50-row ledger each, the ledger they were computed from), one recordMonthEnd per
 * portfolio (one transaction each), into
 *   - the embedded database (PGlite, a folder under the temp directory), opened fresh;
 *   - a real PostgreSQL server started here (fsync on: a server's real commit cost), one pool,
 *     one writer, then the same month again with 4 writers at once (a re-run: every month replaced);
 * against the baseline, same run, same data: serialising each portfolio's record to its own JSON
 * file (what a report folder holds today). Then the 36-month history query for every portfolio
 * (35 earlier month-ends added in one statement first).
 *
 *   npx tsx bench/db-record.ts [--portfolios 1000] [--holdings 50]   # progress on stderr, ONE JSON line last
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { startPostgres } from '../fixtures/postgres-server';
import { monthEnds, openDatabase, recordMonthEnd, recordRun, type Database, type HoldingValuation, type MonthEndInput } from '../src/db';
import type { LedgerEntry } from '../src/ledger/types';
import { runBench } from './support/run-bench';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const PORTFOLIOS = arg('--portfolios', 1000);
const HOLDINGS = arg('--holdings', 50);
const AS_OF = '2025-03-31';
const work = mkdtempSync(join(tmpdir(), 'bench-db-record-'));
const log = (s: string) => process.stderr.write(`${s}\n`);
const ms = (t0: bigint) => Math.round(Number(process.hrtime.bigint() - t0) / 1e5) / 10;

function portfolio(p: number, run: number): MonthEndInput {
  const name = `Client ${String(p).padStart(4, '0')}`;
  const holdings: HoldingValuation[] = [];
  const ledger: LedgerEntry[] = [];
  for (let i = 0; i < HOLDINGS; i++) {
    const value = Math.round((10_000 + ((p * 7919 + i * 104729) % 5_000_000)) * 100) / 100;
    holdings.push({
      row: i + 2,
      assetId: `AST-${p}-${i}`,
      description: `Patek Philippe Nautilus 5711/1A-${i}`,
      quantity: 1 + (i % 3),
      valueMid: value,
      valueLow: Math.round(value * 90) / 100,
      valueHigh: Math.round(value * 110) / 100,
      currency: i % 4 ? 'USD' : 'EUR',
      confidence: 0.8,
      marketValidated: i % 2 === 0,
      valuationId: `val_${p}_${i}`,
    });
    ledger.push({ portfolio: name, date: `2024-${String((i % 12) + 1).padStart(2, '0')}-10`, type: 'buy', assetId: `AST-${p}-${i}`, quantity: 1 + (i % 3), amount: Math.round(value * 80) / 100, currency: 'USD', source: { file: 'ledger.csv', row: i + 2 } });
  }
  const value = holdings.reduce((s, h) => s + h.valueMid, 0);
  return { run, portfolio: name, asOf: AS_OF, currency: 'USD', value: Math.round(value * 100) / 100, netFlows: 0, holdings, ledger };
}

async function record(db: Database, writers: number): Promise<{ ms: number; run: number }> {
  const run = await recordRun(db, { toolVersion: 'bench', serviceUrl: 'http://127.0.0.1', sandbox: true, command: 'bench/db-record.ts' });
  const t0 = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < PORTFOLIOS) await recordMonthEnd(db, portfolio(next++, run));
    }),
  );
  return { ms: ms(t0), run };
}

/**
 * The 36-month history query for every portfolio: the 35 month-ends before AS_OF are added in one
 * statement (their holdings do not matter to the query), then monthEnds() per portfolio.
 */
async function history(db: Database, run: number): Promise<number> {
  await sql`insert into month_ends (portfolio_id, as_of, run_id, currency, value, net_flows)
    select p.id, (date_trunc('month', ${AS_OF}::date - make_interval(months => m)) + interval '1 month - 1 day')::date, ${run}, 'USD', 1000000 + m * 1000.01, m * 10.01
    from portfolios p cross join generate_series(1, 35) as m
    on conflict (portfolio_id, as_of) do nothing`.execute(db.kysely);
  const t0 = process.hrtime.bigint();
  for (let p = 0; p < PORTFOLIOS; p++) {
    const rows = await monthEnds(db, `Client ${String(p).padStart(4, '0')}`, { from: '2022-04-30', to: AS_OF });
    if (rows.length !== 36) throw new Error(`history of portfolio ${p}: ${rows.length} rows`);
  }
  return ms(t0);
}

async function main() {
  // Data generation is in every figure alike (each writer builds its record as it goes).
  log(`baseline: ${PORTFOLIOS} JSON files`);
  const t0 = process.hrtime.bigint();
  for (let p = 0; p < PORTFOLIOS; p++) writeFileSync(join(work, `p${p}.json`), JSON.stringify(portfolio(p, 1)));
  const jsonMs = ms(t0);

  log('pglite: open (a fresh folder: initdb and migrations)');
  let t = process.hrtime.bigint();
  const lite = await openDatabase(join(work, 'pglite'));
  const liteOpenMs = ms(t);
  log(`pglite: recording ${PORTFOLIOS} × ${HOLDINGS}`);
  const liteMs = (await record(lite, 1)).ms;
  const liteRerun = await record(lite, 1);
  const liteRerunMs = liteRerun.ms;
  const liteHistoryMs = await history(lite, liteRerun.run);
  await lite.close();
  t = process.hrtime.bigint();
  const reopened = await openDatabase(join(work, 'pglite'));
  const liteReopenMs = ms(t);
  await reopened.close();

  log('postgres: starting a server (fsync on)');
  const server = await startPostgres({ durable: true });
  try {
    const url = await server.newDatabase();
    t = process.hrtime.bigint();
    const pgdb = await openDatabase(url, { poolSize: 4 });
    const pgOpenMs = ms(t);
    log(`postgres: recording ${PORTFOLIOS} × ${HOLDINGS}, 1 writer`);
    const pgMs = (await record(pgdb, 1)).ms;
    log('postgres: the same month again, 4 writers');
    const pg4 = await record(pgdb, 4);
    const pg4Ms = pg4.ms;
    const pgHistoryMs = await history(pgdb, pg4.run);
    await pgdb.close();
    const r = (x: number) => Math.round(x * 100) / 100;
    console.log(
      JSON.stringify({
        bench: 'db-record',
        portfolios: PORTFOLIOS,
        holdings_per_portfolio: HOLDINGS,
        ledger_rows_per_portfolio: HOLDINGS,
        cpus: cpus().length,
        load1: r(loadavg()[0]!),
        baseline_json_files_ms: jsonMs,
        pglite: { open_fresh_ms: liteOpenMs, reopen_ms: liteReopenMs, record_ms: liteMs, rerun_replace_ms: liteRerunMs, per_portfolio_ms: r(liteMs / PORTFOLIOS), vs_json: r(liteMs / jsonMs), history_36_months_all_portfolios_ms: liteHistoryMs },
        postgres: { open_fresh_ms: pgOpenMs, record_ms: pgMs, per_portfolio_ms: r(pgMs / PORTFOLIOS), vs_json: r(pgMs / jsonMs), rerun_4_writers_ms: pg4Ms, history_36_months_all_portfolios_ms: pgHistoryMs },
      }),
    );
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

runBench(work, main);

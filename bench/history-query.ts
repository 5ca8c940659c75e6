/**
 * The 36-month history query (issue 23) for 1,000 portfolios, on both backends: 36 month-ends
 * recorded per portfolio in bulk (one INSERT … SELECT each for the month-ends and for their
 * holdings, 5 holdings a month-end: the query reads month_ends alone, the holdings only give the
 * tables a real shape), then monthEnds(db, portfolio, { from, to }) over 36 months for every
 * portfolio, one after another. Baselines in the same run, same connection: a `select 1` round
 * trip, and the same query over one month.
 *
 *   npx tsx bench/history-query.ts [--portfolios 1000] [--months 36]   # progress on stderr, ONE JSON line last
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { startPostgres } from '../fixtures/postgres-server';
import { monthEnds, openDatabase, recordRun, type Database } from '../src/db';
import { runBench } from './support/run-bench';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const PORTFOLIOS = arg('--portfolios', 1000);
const MONTHS = arg('--months', 36);
const HOLDINGS_PER_MONTH_END = 5;
const AS_OF = '2026-09-30';
const work = mkdtempSync(join(tmpdir(), 'bench-history-query-'));
const log = (s: string) => process.stderr.write(`${s}\n`);
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const r3 = (x: number) => Math.round(x * 1000) / 1000;
const name = (p: number) => `Client ${String(p).padStart(4, '0')}`;
/** The month-end `m` months before AS_OF. */
const monthEnd = (m: number) => new Date(Date.UTC(2026, 9 - m, 0)).toISOString().slice(0, 10);

async function fill(db: Database): Promise<number> {
  const t0 = process.hrtime.bigint();
  const run = await recordRun(db, { toolVersion: 'bench', serviceUrl: 'http://127.0.0.1', sandbox: true, command: 'bench/history-query.ts' });
  await sql`insert into portfolios (name) select 'Client ' || lpad(g::text, 4, '0') from generate_series(0, ${PORTFOLIOS - 1}::int) g`.execute(db.kysely);
  await sql`insert into month_ends (portfolio_id, as_of, run_id, currency, value, net_flows)
    select p.id, (date_trunc('month', ${AS_OF}::date - make_interval(months => m)) + interval '1 month - 1 day')::date, ${run}, 'USD', 1000000 + p.id * 10 + m * 1000.01, m * 10.01
    from portfolios p cross join generate_series(0, ${MONTHS - 1}::int) as m`.execute(db.kysely);
  await sql`insert into holding_valuations (month_end_id, row, asset_id, description, quantity, value_mid, currency)
    select m.id, h + 2, 'AST-' || m.portfolio_id || '-' || h, 'Rolex Daytona 116500LN', 1, 20000 + h * 100, 'USD'
    from month_ends m cross join generate_series(0, ${HOLDINGS_PER_MONTH_END - 1}::int) as h`.execute(db.kysely);
  await sql`analyze`.execute(db.kysely);
  return ms(t0);
}

/** Each figure in ms per call, over every portfolio in turn. */
async function measure(db: Database) {
  const from = monthEnd(MONTHS - 1);
  const time = async (call: (p: number) => Promise<unknown>) => {
    for (let p = 0; p < 20; p++) await call(p); // warm-up: plans cached, pages in memory
    const t0 = process.hrtime.bigint();
    for (let p = 0; p < PORTFOLIOS; p++) await call(p);
    return ms(t0);
  };
  const selectOne = await time(() => sql`select 1`.execute(db.kysely));
  const oneMonth = await time(async (p) => {
    if ((await monthEnds(db, name(p), { from: AS_OF, to: AS_OF })).length !== 1) throw new Error(`one month of ${name(p)}`);
  });
  const history = await time(async (p) => {
    if ((await monthEnds(db, name(p), { from, to: AS_OF })).length !== MONTHS) throw new Error(`${MONTHS} months of ${name(p)}`);
  });
  return {
    history_all_portfolios_ms: Math.round(history),
    history_per_portfolio_ms: r3(history / PORTFOLIOS),
    one_month_per_portfolio_ms: r3(oneMonth / PORTFOLIOS),
    select_1_ms: r3(selectOne / PORTFOLIOS),
    vs_one_month: Math.round((history / oneMonth) * 100) / 100,
    vs_select_1: Math.round((history / selectOne) * 100) / 100,
  };
}

async function main() {
  log(`pglite: ${PORTFOLIOS} portfolios × ${MONTHS} month-ends`);
  const lite = await openDatabase(join(work, 'pglite'));
  const liteFill = await fill(lite);
  const liteFigures = await measure(lite);
  await lite.close();

  log('postgres: the same (fsync on)');
  const server = await startPostgres({ durable: true });
  try {
    const pgdb = await openDatabase(await server.newDatabase());
    const pgFill = await fill(pgdb);
    const pgFigures = await measure(pgdb);
    await pgdb.close();
    console.log(
      JSON.stringify({
        bench: 'history-query',
        portfolios: PORTFOLIOS,
        months: MONTHS,
        holdings_per_month_end: HOLDINGS_PER_MONTH_END,
        recorded_in_bulk: true,
        cpus: cpus().length,
        load1: Math.round(loadavg()[0]! * 100) / 100,
        pglite: { fill_ms: Math.round(liteFill), ...liteFigures },
        postgres: { fill_ms: Math.round(pgFill), ...pgFigures },
      }),
    );
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

runBench(work, main);

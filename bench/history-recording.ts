/**
 * What recording into the history database adds to a month-end run (issue 23's goal: < 10%).
 * 1,000 portfolios × 50 holdings, each through the run's own paths (reports/run):
 *   (i)   baseline: each portfolio's reports written by the run's WritePool (worker threads), the
 *         formats of --formats (json,csv by default: the PDF and workbook of 1,000 portfolios
 *         would take most of an hour here, and a cheaper baseline makes the overhead look larger,
 *         not smaller);
 *   (ii)  the same, plus HistoryStore as `svc-report run` uses it: the database opened (an
 *         existing PGlite folder, as every run after the first finds it), each portfolio's
 *         recorded month-ends read, its month-end recorded (50 holdings, a ledger of 50 buys),
 *         the store closed (every write waited for);
 *   (iii) the same into a real PostgreSQL server (fsync on).
 * The baseline is measured before and after the two and averaged (the machine's load drifts).
 * Report data come from the writers' deterministic fixture (fixtures/report-data.ts), built once
 * before timing; no service is involved (its calls are the same with or without a database).
 *
 *   npx tsx bench/history-recording.ts [--portfolios 1000] [--holdings 50] [--formats json,csv]
 *   # progress on stderr, ONE JSON line last
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres } from '../fixtures/postgres-server';
import { makeReportData } from '../fixtures/report-data';
import type { ReportData, ReportFormat } from '../reports/report-data';
import { HistoryStore } from '../reports/run/history-store';
import type { PortfolioLedger } from '../reports/run/run-inputs';
import { WritePool } from '../reports/run/write-pool';
import { close, openDatabase } from '../src/db';
import type { LedgerEntry } from '../src/ledger/types';
import { runBench } from './support/run-bench';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};
const PORTFOLIOS = Number(arg('--portfolios', '1000'));
const HOLDINGS = Number(arg('--holdings', '50'));
const FORMATS = arg('--formats', 'json,csv').split(',') as ReportFormat[];
const work = mkdtempSync(join(tmpdir(), 'bench-history-recording-'));
const log = (s: string) => process.stderr.write(`${s}\n`);
const ms = (t0: bigint) => Math.round(Number(process.hrtime.bigint() - t0) / 1e5) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;

interface Portfolio {
  data: ReportData;
  ledger: PortfolioLedger;
}

/** Each portfolio's report (holdings materialised: they cross to the writer threads) and its ledger of one buy per holding. */
function portfolios(): Portfolio[] {
  return Array.from({ length: PORTFOLIOS }, (_, p) => {
    const name = `Client ${String(p).padStart(4, '0')}`;
    const made = makeReportData({ holdings: HOLDINGS, seed: p + 1, portfolioName: name });
    const data = { ...made, holdings: [...made.holdings] };
    const entries: LedgerEntry[] = data.holdings.map((h, i) => ({ portfolio: name, date: `2024-${String((i % 12) + 1).padStart(2, '0')}-10`, type: 'buy', assetId: h.asset_id, quantity: h.quantity, amount: h.purchase_price, currency: 'USD', source: { file: 'ledger.csv', row: i + 2 } }));
    return { data, ledger: { entries, realisations: [] } };
  });
}

/** One month-end run's writing, with the history database at `db` or none; its wall time. */
async function monthEnd(all: Portfolio[], out: string, db: string | undefined): Promise<number> {
  const t0 = process.hrtime.bigint();
  const history = db ? await HistoryStore.open({ target: db, from: '--db' }, { toolVersion: 'bench', serviceUrl: 'http://127.0.0.1', sandbox: true, command: 'bench/history-recording.ts' }, () => {}) : undefined;
  const pool = new WritePool();
  try {
    await Promise.all(
      all.map(async ({ data, ledger }) => {
        // As run-job: the recorded month-ends read before the report is built, the record queued, the report written.
        if (history) await history.recorded(data.cover.portfolio_name, data.cover.as_of, data.cover.currency, undefined, () => {});
        void history?.record(data, ledger, () => {});
        await pool.write(data, out, FORMATS);
      }),
    );
  } finally {
    await pool.close();
  }
  const failures = (await history?.close()) ?? [];
  if (failures.length > 0) throw new Error(`not recorded: ${failures.slice(0, 3).join('; ')}`);
  return ms(t0);
}

async function main() {
  log(`building ${PORTFOLIOS} × ${HOLDINGS} report data`);
  const all = portfolios();
  // A first write loads the writers in the threads' modules for every leg alike; not timed.
  await monthEnd(all.slice(0, 2), join(work, 'warm'), undefined);

  log(`(i) writing ${FORMATS.join('+')} alone`);
  const baseBefore = await monthEnd(all, join(work, 'base-1'), undefined);

  const lite = join(work, 'pglite');
  let t = process.hrtime.bigint();
  await close(await openDatabase(lite));
  const liteCreateMs = ms(t);
  log('(ii) the same, recording into PGlite');
  const liteMs = await monthEnd(all, join(work, 'lite'), lite);

  log('(iii) the same, recording into PostgreSQL (fsync on)');
  const server = await startPostgres({ durable: true });
  let pgMs: number;
  try {
    const url = await server.newDatabase();
    await close(await openDatabase(url)); // the schema in place, as every run after the first finds it
    pgMs = await monthEnd(all, join(work, 'pg'), url);
  } finally {
    await server.stop();
  }

  log(`(i) again`);
  const baseAfter = await monthEnd(all, join(work, 'base-2'), undefined);
  const base = (baseBefore + baseAfter) / 2;
  t = process.hrtime.bigint();
  rmSync(work, { recursive: true, force: true });
  const liteOverhead = liteMs / base - 1;
  const pgOverhead = pgMs / base - 1;
  console.log(
    JSON.stringify({
      bench: 'history-recording',
      portfolios: PORTFOLIOS,
      holdings_per_portfolio: HOLDINGS,
      ledger_rows_per_portfolio: HOLDINGS,
      formats: FORMATS,
      scaled_down: PORTFOLIOS < 1000 || HOLDINGS < 50,
      cpus: cpus().length,
      load1: r2(loadavg()[0]!),
      baseline_write_ms: { before: baseBefore, after: baseAfter, mean: base },
      pglite: { ms: liteMs, vs_baseline: r2(liteMs / base), overhead_percent: Math.round(liteOverhead * 1000) / 10, goal_under_10_percent_met: liteOverhead < 0.1, create_fresh_folder_ms: liteCreateMs },
      postgres: { ms: pgMs, vs_baseline: r2(pgMs / base), overhead_percent: Math.round(pgOverhead * 1000) / 10, goal_under_10_percent_met: pgOverhead < 0.1 },
    }),
  );
}

runBench(work, main);

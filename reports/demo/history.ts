/**
 * The demo's history (issue 23): the example portfolios run as of each of the twelve month-ends
 * before today on the embedded sandbox (which values as of a past day), recorded into the demo's
 * own history database, so the first report a newcomer opens already shows the periods, the value
 * over time, the sales and the fees. `svc-report demo` (reports/demo/demo-command.ts) runs this
 * beside the month-end itself.
 *
 * Fast (issue 34). One run at a time, each opening the database, took ~86 s on two cores: each
 * month's 92 calls paced at the demo account's 1,000 a minute (5.5 s a month, twelve times over),
 * the embedded database created (initdb, the largest single cost) and then opened again for every
 * month. Here the months run against one embedded sandbox (one market model, which values as of
 * the day each month asks for), each month with an account of its own there so that each keeps
 * its own pace, with a one-second rate window (the demo's own sandbox; its pace protects no one),
 * asking only what a month records (the starter tier's calls), three months at a time, JSON only
 * and no consolidated report (nothing records it), the input files read once for all twelve,
 * with one writer for all of them, while the database is opened beside them; the twelve folders
 * are then recorded under that one opening, as `svc-report history import` records earlier reports.
 */
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { DatabaseUser } from '../../src/db';
import { readEachOnce } from '../../src/holdings/load';
import { startSandbox, type AccountConfig } from '../../src/sandbox';
import { monthEndBefore } from '../../src/performance';
import { importReports, readFolders } from '../history/import-reports';
import { recordRun, toolVersion } from '../run-manifest';
import { runReports } from '../run/run-job';
import type { WritePool } from '../run/write-pool';

const MONTHS = 12;
/** Months valued at once: enough to overlap one month's calls with another's building, few enough that two cores are not swamped. */
const AT_ONCE = 3;
/** The history months' rate window (ms): their own embedded sandboxes' pace protects no one. */
const HISTORY_MINUTE_MS = 1_000;
/**
 * What a month records is its valuations: the starter tier's calls (valuations, scores, signals)
 * value every holding exactly as the enterprise tier does, without the projections, exit analyses
 * and benchmarks (three calls in four) that no recorded figure reads.
 */
const HISTORY_TIER = 'starter';

export interface DemoHistoryOptions {
  /** The holdings and transactions files, as the month-end reads them. */
  files: string[];
  /** Each month's reports go to OUT/YYYY-MM-DD. */
  out: string;
  config?: string;
  /** The database the months are recorded in (held open by the caller for the whole demo). */
  database: DatabaseUser & { readonly where: string };
  /** One writer shared with the caller's month-end. */
  writers: WritePool;
  today?: string;
}

export interface DemoHistory {
  months: string[];
  imported: number;
  portfolios: number;
}

/** Values and records the twelve month-ends before `today`; the line to say is the caller's. */
export async function recordDemoHistory(o: DemoHistoryOptions): Promise<DemoHistory> {
  const today = o.today ?? new Date().toISOString().slice(0, 10);
  const quiet = { update: () => {}, log: () => {}, stop: () => {} };
  const months = Array.from({ length: MONTHS }, (_, i) => monthEndBefore(today, MONTHS - i));
  const limit = pLimit(AT_ONCE);
  // An account a month, each the starter tier's limits: the pace each month had with a sandbox of its own.
  const accounts: AccountConfig[] = months.map((asOf) => ({ client_id: `demo-history-${asOf}`, client_secret: `demo-history-${asOf}-secret`, tier: HISTORY_TIER }));
  const sandbox = await startSandbox({ port: 0, quiet: true, minuteMs: HISTORY_MINUTE_MS, accounts });
  const tablesOf = readEachOnce();
  let folders: string[];
  try {
    folders = await Promise.all(
      months.map((asOf, i) =>
        limit(async () => {
          const out = join(o.out, asOf);
          // A holding bought after a past month-end is refused in that month's run (exit 3): expected here.
          const outcome = await runReports(
            { files: o.files, out, asOf, db: 'off', config: o.config, formats: 'json', minuteMs: HISTORY_MINUTE_MS, tier: HISTORY_TIER, consolidated: false },
            { signal: new AbortController().signal, progress: quiet, writers: o.writers, shared: { tablesOf, sandbox: { running: sandbox, account: accounts[i]! } } },
          );
          // Each folder's manifest, as `svc-report run` writes it: the import verifies the reports against it.
          await recordRun('run', out, { asOf, config: o.config, formats: 'json' }, o.files, outcome.files);
          return out;
        }),
      ),
    );
  } finally {
    await sandbox.close();
  }
  const files = await readFolders(folders);
  const summary = await o.database.use((db) =>
    importReports(db, folders, files, `demo-history ${months[0]} … ${months.at(-1)}`, toolVersion(), {
      out: () => {},
      say: (line) => void process.stderr.write(`${line}\n`),
    }),
  );
  return { months, imported: summary.imported, portfolios: summary.portfolios };
}

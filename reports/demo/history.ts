/**
 * The demo's history (issue 23): the example portfolios run as of each of the twelve month-ends
 * before today on the embedded sandbox (which values as of a past day), recorded into the demo's
 * own history database, so the first report a newcomer opens already shows the periods, the value
 * over time, the sales and the fees. `npm run demo` runs this, then the month-end itself.
 *
 * Fast (issue 34). One run at a time, each opening the database, took ~86 s on two cores: each
 * month's 92 calls paced at the demo account's 1,000 a minute (5.5 s a month, twelve times over),
 * the embedded database created (initdb, the largest single cost) and then opened again for every
 * month. Here each month runs against its own embedded sandbox with a one-second rate window (the
 * demo's own sandbox; its pace protects no one), asking only what a month records (the starter
 * tier's calls), three months at a time, with no database and JSON only, while the database is
 * created beside them; the twelve folders are then recorded under that
 * one opening, as `svc-report history import` records earlier reports. The month-end that follows
 * (out/demo) runs as any month-end does, at the account's pace. bench/demo.ts measures both.
 *
 * Usage: node dist/cli/demo-history.js --db FOLDER --out FOLDER --config FILE FILES…
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pLimit from 'p-limit';
import { openDatabase } from '../../src/db';
import { monthEndBefore } from '../../src/performance';
import { importReports, readFolders } from '../history/import-reports';
import { recordRun, toolVersion } from '../run-manifest';
import { runReports } from '../run/run-job';

const MONTHS = 12;
/** Months valued at once: enough to overlap one month's calls with another's building, few enough that two cores are not swamped by writer threads. */
const AT_ONCE = 3;
/** The history months' rate window (ms): their own embedded sandboxes' pace protects no one. */
const HISTORY_MINUTE_MS = 1_000;
/**
 * What a month records is its valuations: the starter tier's calls (valuations, scores, signals)
 * value every holding exactly as the enterprise tier does, without the projections, exit analyses
 * and benchmarks (three calls in four) that no recorded figure reads.
 */
const HISTORY_TIER = 'starter';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { db: { type: 'string' }, out: { type: 'string' }, config: { type: 'string' } }, allowPositionals: true });
  if (!values.db || !values.out || positionals.length === 0) throw new Error('usage: demo-history --db FOLDER --out FOLDER [--config FILE] FILES…');
  const today = new Date().toISOString().slice(0, 10);
  const quiet = { update: () => {}, log: () => {}, stop: () => {} };
  const months = Array.from({ length: MONTHS }, (_, i) => monthEndBefore(today, MONTHS - i));
  const limit = pLimit(AT_ONCE);
  // Created (or opened) while the months are valued: initdb is the largest single cost of a fresh demo.
  const opening = openDatabase(values.db);
  opening.catch(() => {}); // awaited below
  const valued = Promise.all(
    months.map((asOf) =>
      limit(async () => {
        const out = join(values.out!, asOf);
        // A holding bought after a past month-end is refused in that month's run (exit 3): expected here.
        const outcome = await runReports({ files: positionals, out, asOf, db: 'off', config: values.config, formats: 'json', minuteMs: HISTORY_MINUTE_MS, tier: HISTORY_TIER }, { signal: new AbortController().signal, progress: quiet });
        // Each folder's manifest, as `svc-report run` writes it: the import verifies the reports against it.
        await recordRun('run', out, { asOf, config: values.config, formats: 'json' }, positionals, outcome.files);
        return out;
      }),
    ),
  );
  valued.catch(() => {}); // awaited below, once the database is open
  const db = await opening;
  try {
    const folders = await valued;
    const files = await readFolders(folders);
    const summary = await importReports(db, folders, files, `demo-history ${months[0]} … ${months.at(-1)}`, toolVersion(), {
      out: () => {},
      // Each month's consolidated report is skipped, as it should be: only what is not expected is said.
      say: (line) => void (line.startsWith('Skipped ') || process.stderr.write(`${line}\n`)),
    });
    process.stderr.write(`History: ${summary.imported} month-ends of ${summary.portfolios} portfolios recorded (${months[0]} to ${months.at(-1)}) in ${db.where}; the reports are in ${values.out}.\n`);
  } finally {
    await db.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`demo-history: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});

/**
 * The demo's history (issue 23): the example portfolios run as of each of the twelve month-ends
 * before today on the embedded sandbox (which values as of a past day), recorded into the demo's
 * own history database, so the first report a newcomer opens already shows the periods, the value
 * over time, the sales and the fees. `npm run demo` runs this, then the month-end itself.
 *
 * Fast (issue 34): one run at a time, each opening the database, took ~86 s on two cores, most of
 * it the embedded database opened twelve times and each month's calls paced one month after
 * another at the demo account's 1,000 a minute. Here the months are valued side by side (each run
 * has its own embedded sandbox and budget, so the pacing overlaps), with no database, JSON only;
 * then the twelve folders are recorded under one opening, as `svc-report history import` does.
 *
 * Usage: node dist/cli/demo-history.js --db FOLDER --out FOLDER --config FILE FILES…
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pLimit from 'p-limit';
import { openDatabase } from '../../src/db';
import { monthEndBefore } from '../../src/performance';
import { importReports, readFolders } from '../history/import-reports';
import { toolVersion } from '../run-manifest';
import { runReports } from '../run/run-job';

const MONTHS = 12;
/** Months valued at once: enough to overlap the pacing of each, few enough that two cores are not swamped by writer threads. */
const AT_ONCE = 4;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { db: { type: 'string' }, out: { type: 'string' }, config: { type: 'string' } }, allowPositionals: true });
  if (!values.db || !values.out || positionals.length === 0) throw new Error('usage: demo-history --db FOLDER --out FOLDER [--config FILE] FILES…');
  const today = new Date().toISOString().slice(0, 10);
  const quiet = { update: () => {}, log: () => {}, stop: () => {} };
  const months = Array.from({ length: MONTHS }, (_, i) => monthEndBefore(today, MONTHS - i));
  const limit = pLimit(AT_ONCE);
  const folders = await Promise.all(
    months.map((asOf) =>
      limit(async () => {
        const out = join(values.out!, asOf);
        // A holding bought after a past month-end is refused in that month's run (exit 3): expected here.
        await runReports({ files: positionals, out, asOf, db: 'off', config: values.config, formats: 'json' }, { signal: new AbortController().signal, progress: quiet });
        return out;
      }),
    ),
  );
  const files = await readFolders(folders);
  const db = await openDatabase(values.db);
  try {
    const summary = await importReports(db, folders, files, `demo-history ${months[0]} … ${months.at(-1)}`, toolVersion(), { out: () => {}, say: (line) => process.stderr.write(`${line}\n`) });
    process.stderr.write(`History: ${summary.imported} month-ends of ${summary.portfolios} portfolios recorded (${months[0]} to ${months.at(-1)}) in ${db.where}; the reports are in ${values.out}.\n`);
  } finally {
    await db.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`demo-history: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});

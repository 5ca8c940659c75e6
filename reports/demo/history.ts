/**
 * The demo's history (issue 23): the example portfolios run as of each of the twelve month-ends
 * before today on the embedded sandbox (which values as of a past day), recorded into the demo's
 * own history database, so the first report a newcomer opens already shows the periods, the value
 * over time, the sales and the fees. `npm run demo` runs this, then the month-end itself.
 *
 * Usage: node dist/cli/demo-history.js --db FOLDER --out FOLDER --config FILE FILES…
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { monthEndBefore } from '../../src/performance';
import { runReports } from '../run/run-job';

const MONTHS = 12;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { db: { type: 'string' }, out: { type: 'string' }, config: { type: 'string' } }, allowPositionals: true });
  if (!values.db || !values.out || positionals.length === 0) throw new Error('usage: demo-history --db FOLDER --out FOLDER [--config FILE] FILES…');
  const today = new Date().toISOString().slice(0, 10);
  const quiet = { update: () => {}, log: () => {}, stop: () => {} };
  for (let n = MONTHS; n >= 1; n--) {
    const asOf = monthEndBefore(today, n);
    const outcome = await runReports(
      { files: positionals, out: join(values.out, asOf), asOf, db: values.db, config: values.config, formats: 'json' },
      { signal: new AbortController().signal, progress: quiet },
    );
    // A holding bought after a past month-end is refused in that month's run (exit 3): expected here.
    process.stderr.write(`History: ${asOf} recorded (${outcome.files.length} reports in ${join(values.out, asOf)}).\n`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`demo-history: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});

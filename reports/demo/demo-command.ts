/**
 * `svc-report demo` (`npm run demo`): the example portfolios with a year of recorded history,
 * their month-end reports and the market dashboard, on the embedded sandbox, with nothing set up.
 *
 * One process (issue 34: under 15 s on two cores). Three commands in a row took 28 s: the year
 * of history, then the month-end, then the dashboard, each loading the writers, opening the
 * database and starting a sandbox of its own. Here the month-end is valued at its account's pace
 * while the year before it is valued and recorded (it reads the recorded month-ends once they
 * are in, before its first report is built), the dashboard is made beside both, and the database
 * is opened once (from the empty copy made at build: src/db/pglite-template.ts) and one writer
 * serves everything. What each part writes and says is what its own command writes and says.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { HistoryDatabase } from '../../src/db';
import { packageRoot } from '../../src/package-root';
import { say } from '../ops/process-log';
import type { RunIo, RunOptions } from '../run/run-job';
import { UsageError } from '../run/exit-codes';
import { WritePool } from '../run/write-pool';
import { recordDemoHistory } from './history';

/** The examples the demo reads, from the package's examples/ folder. */
export const DEMO_FILES = ['meridian-wealth-clients.csv', 'hartley-family-office.xlsx', 'ng-collectibles.json', 'demo-transactions.csv'];
const DEMO_CONFIG = 'svc-report.config.json';

/** The commands the demo runs, as `svc-report run` and `svc-report dashboard` run them. */
export interface DemoCommands {
  run(files: string[], opts: Omit<RunOptions, 'files'>, io: Pick<RunIo, 'history' | 'writers'>): Promise<number>;
  dashboard(opts: { out: string; config?: string }, writers: WritePool): Promise<number>;
}

/** Writes OUT/demo (the month-end's reports and the dashboard) and OUT/demo-history (the year before it and its database); the worst exit code of the parts. */
export async function runDemo(out: string, commands: DemoCommands): Promise<number> {
  const examples = join(packageRoot(), 'examples');
  const files = DEMO_FILES.map((f) => join(examples, f));
  const config = join(examples, DEMO_CONFIG);
  const missing = [...files, config].filter((f) => !existsSync(f));
  if (missing.length > 0) throw new UsageError(`the demo's example files are not in this installation (${missing.join(', ')}): run it from a clone of the repository`);

  const historyOut = join(out, 'demo-history');
  const monthEndOut = join(out, 'demo');
  const dbFolder = join(historyOut, 'db');
  const database = new HistoryDatabase(dbFolder, { command: 'svc-report demo' });
  // A writer a core, not a core less as for `run`: the month-end's reports are written once the history is recorded, when this thread has nothing left to do but wait for them.
  const writers = new WritePool(availableParallelism());
  // Held for the whole demo, opened now: the history, the month-end's reading and its recording share this one opening.
  let release!: () => void;
  const whole = new Promise<void>((resolve) => (release = resolve));
  const held = database.use(() => whole);
  held.catch(() => {}); // its failure reaches the parts that use the database
  try {
    const history = recordDemoHistory({ files, out: historyOut, config, database, writers }).then((h) => {
      say(`History: ${h.imported} month-ends of ${h.portfolios} portfolios recorded (${h.months[0]} to ${h.months.at(-1)}) in ${database.where}; their reports are in ${historyOut}.`);
    });
    const ready = history.catch(() => {});
    const [monthEnd, dashboard] = await Promise.all([
      commands.run(files, { out: monthEndOut, db: dbFolder, config }, { history: { ready: history, database }, writers }),
      // Written by the pool too: on the event loop its PDF took a second of the CPU the history months need.
      commands.dashboard({ out: monthEndOut, config }, writers),
      ready,
    ]);
    await history;
    return monthEnd !== 0 ? monthEnd : dashboard;
  } finally {
    release();
    await held.catch(() => {});
    await database.close();
    await writers.close();
  }
}

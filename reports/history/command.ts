import { Command } from 'commander';
import { printable } from '../../src/printable';
import { logFormatOption, say } from '../ops/process-log';
import { basename } from 'node:path';
import { EXIT, UsageError } from '../run/exit-codes';
import { dbWaitOption } from './database-target';
import { REPORT_SCHEMA_VERSION } from '../report-data';

/** "1.0 to 1.4": the schemas import reads, up to the one `run` writes now (so the help cannot fall behind). */
const SCHEMAS_READ = `1.0 to ${REPORT_SCHEMA_VERSION.split('.').slice(0, 2).join('.')}`;

const DB_HELP = 'the history database: a folder (embedded) or a postgres:// URL (default: SVC_DB_URL, else db in the config, else the folder under your data directory)';

interface DatabaseFlags {
  db?: string;
  dbWait?: number;
  config?: string;
}

/**
 * Opens the database the flags, environment and config name (waiting up to --db-wait for another
 * process holding an embedded one), says which on stderr, runs `work` and closes it. `mustExist`:
 * an embedded folder holding no database is refused (exit 2), not created.
 */
async function withDatabase<T>(opts: DatabaseFlags, command: string, mustExist: boolean, work: (db: import('../../src/db').Database) => Promise<T>): Promise<T> {
  const [{ resolveDatabaseTarget, refuseEmptyFolder, DEFAULT_DB_WAIT_SECONDS }, { readConfigFile }, { openDatabase, isDatabaseOff, DatabaseBusyError }] = await Promise.all([import('./database-target'), import('../config'), import('../../src/db')]);
  const { target, source } = resolveDatabaseTarget(opts, process.env, readConfigFile(opts.config, process.cwd()));
  if (isDatabaseOff(target)) throw new UsageError(`svc-report history needs a history database, and ${source === 'config' ? 'db in the config file' : source} says off: give --db FOLDER or --db postgres://…`);
  if (mustExist) refuseEmptyFolder(target, 'nothing to show');
  const db = await openDatabase(target, { mustExist, waitMs: (opts.dbWait ?? DEFAULT_DB_WAIT_SECONDS) * 1000, onWait: (line) => say(line), command }).catch((e: unknown) => {
    throw e instanceof DatabaseBusyError ? new UsageError(e.message) : e;
  });
  say(`History database: ${db.where}`);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** `svc-report history import|show` (issue 23): the commands over the history database. */
export function historyCommand(): Command {
  const history = new Command('history').description("A portfolio's history: the month-ends recorded in the history database (docs/report-job.md).").exitOverride();
  history
    .command('import')
    .description(`Record earlier JSON portfolio reports (schema ${SCHEMAS_READ}, as \`run\` writes them) as month-ends in the history database; importing a folder again replaces its month-ends.`)
    .argument('<folders...>', 'report folders a run wrote (their *.json portfolio reports are read; the consolidated report, dashboards and other JSON files are skipped)')
    .option('--db <path|url>', DB_HELP)
    .addOption(dbWaitOption())
    .option('--config <file>', 'config file (default: ./svc-report.config.json when present)')
    .addOption(logFormatOption())
    .addHelpText('after', '\nExample:\n  svc-report history import out/2026-09 out/2026-10 --db postgres://reports@db.internal/history')
    .exitOverride()
    .action(async (folders: string[], opts: DatabaseFlags) => {
      const [{ importReports, readFolders }, { toolVersion }] = await Promise.all([import('./import-reports'), import('../run-manifest')]);
      // Every folder read before the database opens: one that cannot be read records nothing.
      const files = await readFolders(folders, { config: opts.config });
      // The folders' names, not the command line: --db may carry a server's password.
      const command = `svc-report history import ${folders.map((f) => basename(f)).join(' ')}`;
      const summary = await withDatabase(opts, 'svc-report history import', false, (db) =>
        importReports(db, folders, files, command, toolVersion(), { out: (line) => process.stdout.write(`${printable(line)}\n`), say: (line) => say(printable(line)) }),
      );
      const skipped = summary.skipped ? `; ${plural(summary.skipped, 'file')} skipped` : '';
      const malformed = summary.malformed ? `; ${plural(summary.malformed, 'report')} not readable (named above), not imported` : '';
      say(`Imported ${plural(summary.imported, 'month-end')} of ${plural(summary.portfolios, 'portfolio')} (${summary.replaced} replaced one already recorded) as run ${summary.runId}${skipped}${malformed}.`);
      process.exitCode = summary.malformed ? EXIT.usage : EXIT.ok;
    });
  history
    .command('show')
    .description('Print the month-ends recorded for a portfolio (as of, value, net flows, holdings, run), or with --transactions the ledger recorded with one (each row\'s lot and unit); without --portfolio, the portfolios recorded.')
    .option('--portfolio <name>', 'the portfolio, as its reports name it')
    .option('--transactions', 'the ledger recorded with the portfolio\'s latest month-end (date, type, asset, quantity, unit, lot, amount, source)')
    .option('--as-of <date>', 'with --transactions: the month-end (YYYY-MM-DD) whose ledger to print')
    .option('--json', 'one JSON document instead of a table')
    .option('--db <path|url>', DB_HELP)
    .addOption(dbWaitOption())
    .option('--config <file>', 'config file (default: ./svc-report.config.json when present)')
    .addOption(logFormatOption())
    .addHelpText('after', '\nExamples:\n  svc-report history show --portfolio "Okafor Household"\n  svc-report history show --portfolio "Tanaka Collection" --transactions --as-of 2026-10-31')
    .exitOverride()
    .action(async (opts: { portfolio?: string; json?: boolean; transactions?: boolean; asOf?: string } & DatabaseFlags) => {
      const { showHistory } = await import('./show-history');
      const lines = await withDatabase(opts, 'svc-report history show', true, (db) => showHistory(db, opts));
      for (const line of lines) process.stdout.write(`${opts.json ? line : printable(line)}\n`);
      process.exitCode = EXIT.ok;
    });
  return history;
}

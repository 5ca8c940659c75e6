import { defaultDatabasePath, holdsDatabase, parseTarget } from '../../src/db/paths';
import { UsageError } from '../run/exit-codes';
import { InputError } from '../../src/holdings/types';
import { Option, InvalidArgumentError } from 'commander';

/** How long a command waits for another process holding the embedded database, by default (issue 34). */
export const DEFAULT_DB_WAIT_SECONDS = 300;

/** --db-wait SECONDS for every command that opens the history database (run, worker, history show/import, approve, reject). */
export function dbWaitOption(): Option {
  return new Option('--db-wait <seconds>', `how long to wait for another process holding an embedded history database before giving up (exit 2 naming it); 0 refuses at once (default ${DEFAULT_DB_WAIT_SECONDS})`).argParser((value: string) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isInteger(n) || n < 0 || n > 86_400) throw new InvalidArgumentError('--db-wait must be a whole number of seconds from 0 to 86400.');
    return n;
  });
}

/** Where the history database's target came from, for messages. */
export type DatabaseTargetSource = '--db' | 'SVC_DB_URL' | 'config' | 'default';

export interface ResolvedDatabaseTarget {
  /** A folder (the embedded database) or a postgres:// URL: what openDatabase takes. */
  target: string;
  source: DatabaseTargetSource;
}

/**
 * The history database every command that records or reads history uses (issue 23): `--db`,
 * else SVC_DB_URL, else the config file's `db`, else the default folder under the user's data
 * directory. A URL of another kind is refused here (bad usage, exit 2), before anything opens.
 * Light on purpose (no database driver loaded): `run` and `history` both call it.
 */
export function resolveDatabaseTarget(flags: { db?: string }, env: NodeJS.ProcessEnv = process.env, config?: { db?: string }): ResolvedDatabaseTarget {
  const given: [string | undefined, DatabaseTargetSource][] = [
    [flags.db?.trim(), '--db'],
    [env.SVC_DB_URL?.trim(), 'SVC_DB_URL'],
    [config?.db?.trim(), 'config'],
  ];
  const [target, source] = given.find(([t]) => t) ?? [defaultDatabasePath(env), 'default' as const];
  try {
    parseTarget(target!);
  } catch (e) {
    throw new InputError(`${source === 'config' ? 'db in the config file' : source} ${(e as Error).message.replace(/^--db /, '')}`);
  }
  return { target: target!, source };
}

/**
 * Commands that read history or add to what a run recorded (`history show`, `approve`, `reject`)
 * refuse an embedded folder holding no database (exit 2) instead of creating one: a mistyped
 * --db would otherwise get a new, empty 38 MB database. `run` and `history import` create it.
 */
export function refuseEmptyFolder(target: string, consequence: string): void {
  const t = parseTarget(target);
  if (t.kind === 'pglite' && !holdsDatabase(t.path)) {
    throw new UsageError(`the history database folder ${t.path} holds no database (nothing was ever recorded there; check --db, SVC_DB_URL or db in the config: \`svc-report run\` creates it at its first month-end); ${consequence}`);
  }
}

import { defaultDatabasePath, parseTarget } from '../../src/db/paths';
import { InputError } from '../../src/holdings/types';

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

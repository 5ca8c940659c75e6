import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * The embedded database's default folder: `$XDG_DATA_HOME/svc-report/db`, or
 * `~/.local/share/svc-report/db` where XDG_DATA_HOME is unset or not absolute (the XDG rule).
 */
export function defaultDatabasePath(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'share');
  return join(base, 'svc-report', 'db');
}

/** "off" (any case): no history database, for every command and the add-in host (--db off, SVC_DB_URL=off, config db "off"). */
export function isDatabaseOff(target: string): boolean {
  return target.trim().toLowerCase() === 'off';
}

export type DatabaseTarget = { kind: 'postgres'; url: string } | { kind: 'pglite'; path: string };

/** `postgres://…` or `postgresql://…` is a server; anything else is a folder (made absolute). */
export function parseTarget(target: string): DatabaseTarget {
  if (/^postgres(ql)?:\/\//i.test(target)) return { kind: 'postgres', url: target };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
    throw new Error(`--db takes a folder or a postgres:// URL; ${target.split('//')[0]}// is not a database this tool opens`);
  }
  return { kind: 'pglite', path: resolve(target) };
}

/** True when the folder holds an embedded database (PGlite's data folder with its version file). */
export function holdsDatabase(path: string): boolean {
  return existsSync(join(path, 'pgdata', 'PG_VERSION'));
}

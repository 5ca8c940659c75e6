import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { checkServerUrl, CONNECTION_CODES, DatabaseError, folderOpenError, redactUrl, serverOpenError } from './errors';
import { describeHolder, lockFolder, type LockHolder } from './folder-lock';
import { migrate } from './migrations';
import { createPGlite } from './pglite-template';
import { defaultDatabasePath, holdsDatabase, parseTarget } from './paths';
import type { Schema } from './schema';

export interface Database {
  /** The query builder, for the repository functions (and tests). */
  readonly kysely: Kysely<Schema>;
  readonly kind: 'pglite' | 'postgres';
  /** The folder, or the server's URL without its password: what to print on stderr. */
  readonly where: string;
  /** Migrations this open applied (empty when the schema was already current). */
  readonly migrated: readonly string[];
  /** Runs `work` on this database (a handle is its own user: see DatabaseUser). */
  use<T>(work: (db: Database) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Anything that lends a database for a piece of work: an open handle, or a HistoryDatabase that opens it for the work alone. */
export interface DatabaseUser {
  use<T>(work: (db: Database) => Promise<T>): Promise<T>;
}

export interface OpenOptions {
  /** Connections in the pool (server only); default 4. */
  poolSize?: number;
  /** Embedded only: how long to wait for another process holding the folder (ms); default 0, refuse at once. */
  waitMs?: number;
  /** Embedded only: said once when the folder is held by another and this open waits for it. */
  onWait?: (line: string) => void;
  /** Embedded only: what this process is, for whoever finds it holding the folder (e.g. `svc-report run`). */
  command?: string;
  /** Embedded only: refuse a folder that holds no database yet instead of creating one (commands that only read, or add to what a run recorded). */
  mustExist?: boolean;
}

/**
 * Opens the history database: a folder (PGlite, embedded; created if missing) or a
 * `postgres://`/`postgresql://` URL (a server, through a pg pool), and brings its schema up to
 * date. Default: defaultDatabasePath(). Errors name the folder or the server, never a password.
 */
export async function openDatabase(target: string = defaultDatabasePath(), options: OpenOptions = {}): Promise<Database> {
  const t = parseTarget(target);
  return t.kind === 'postgres' ? openServer(t.url, options) : openFolder(t.path, options);
}


async function openServer(url: string, options: OpenOptions): Promise<Database> {
  checkServerUrl(url);
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 4, connectionTimeoutMillis: 30_000 });
  // An idle client's error (the server restarted) must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const kysely = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  let migrated: string[];
  try {
    migrated = await migrate(kysely);
  } catch (e) {
    await kysely.destroy().catch(() => {});
    // A connection error surfaces through the migrator: report the driver's own error (its code says why).
    const cause = (e as { cause?: { code?: string } }).cause;
    throw serverOpenError(url, cause?.code && CONNECTION_CODES.has(cause.code) ? cause : e);
  }
  return handle(kysely, 'postgres', redactUrl(url), migrated, async () => kysely.destroy());
}

async function openFolder(path: string, options: OpenOptions): Promise<Database> {
  if (options.mustExist && !holdsDatabase(path)) {
    throw new DatabaseError(`The database folder ${path} holds no history database (nothing was ever recorded there; check --db: \`svc-report run\` creates it at its first month-end)`);
  }
  try {
    mkdirSync(path, { recursive: true });
    if (!statSync(path).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
  } catch (e) {
    throw folderOpenError(path, e);
  }
  let unlock: () => void;
  try {
    unlock = await lockFolder(join(path, 'owner.lock'), path, {
      waitMs: options.waitMs ?? 0,
      command: options.command,
      onWait: options.onWait && ((h: LockHolder) => options.onWait!(waitingLine(path, h, options.waitMs ?? 0))),
    });
  } catch (e) {
    if (e instanceof DatabaseError) throw e;
    throw folderOpenError(path, e);
  }
  let kysely: Kysely<Schema> | undefined;
  try {
    const pglite = await createPGlite(join(path, 'pgdata'));
    kysely = new Kysely<Schema>({ dialect: new PGliteDialect(pglite) });
    const migrated = await migrate(kysely);
    return handle(kysely, 'pglite', path, migrated, async () => {
      try {
        await kysely!.destroy();
      } finally {
        unlock();
      }
    });
  } catch (e) {
    await kysely?.destroy().catch(() => {});
    unlock();
    if (e instanceof DatabaseError) throw e;
    throw folderOpenError(path, e);
  }
}

/** The one line a waiting command says: who holds the folder, since when, and how long it waits. */
function waitingLine(path: string, holder: LockHolder, waitMs: number): string {
  return `The history database ${path} is in use by ${describeHolder(holder)}; waiting up to ${Math.round(waitMs / 1000)} s for it (--db-wait).`;
}

function handle(kysely: Kysely<Schema>, kind: Database['kind'], where: string, migrated: string[], destroy: () => Promise<void>): Database {
  let closing: Promise<void> | undefined;
  const db: Database = {
    kysely,
    kind,
    where,
    migrated,
    use: (work) => work(db),
    close: () => (closing ??= destroy()),
  };
  return db;
}

/** Closes a database opened with openDatabase (the same as db.close()); closing twice is harmless. */
export function close(db: Database): Promise<void> {
  return db.close();
}

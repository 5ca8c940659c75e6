import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmdirSync, rmSync, statSync, watch, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { DatabaseBusyError } from './errors';

/**
 * The embedded database is one process's at a time (PGlite is Postgres in this process: two
 * processes on one folder would corrupt it). The folder's `owner.lock` says who holds it: pid,
 * since when, which command, and a nonce so a holder removes only its own lock. Commands hold it
 * only while they read or record (issue 34), so another process waits for it, up to `waitMs`,
 * instead of failing; a lock whose process is gone is stale and taken over. Several processes
 * working on one database at once is what a PostgreSQL server is for.
 */

/** Who holds the folder, as its lock file says (older locks hold a bare pid). */
export interface LockHolder {
  pid: number;
  /** ISO time the hold began; absent in an older lock. */
  since?: string;
  /** The command holding it, e.g. `svc-report run`; absent in an older lock. */
  command?: string;
}

export interface LockOptions {
  /** How long to wait for another holder (ms); 0: refuse at once. */
  waitMs: number;
  /** Called once, when the folder is found held and this process starts waiting. */
  onWait?: (holder: LockHolder) => void;
  /** What this process is, for anyone who finds it holding the folder. */
  command?: string;
  /** How often a waiter looks again besides the folder's change events (a dead holder makes none). */
  pollMs?: number;
}

/** How a holder is named in messages: `process 123 (svc-report run, since 2026-11-27T17:00:00Z)`. */
export function describeHolder(h: LockHolder): string {
  const details = [h.command, h.since && `since ${h.since.replace(/\.\d+Z$/, 'Z')}`].filter(Boolean);
  return `process ${h.pid}${details.length ? ` (${details.join(', ')})` : ''}`;
}

/**
 * Takes the folder's lock, waiting up to `waitMs` for another holder to let go; resolves to its
 * release. The lock file appears whole or not at all (written aside, then hard-linked into place,
 * which fails if one exists), so a reader never sees a half-written lock.
 */
export async function lockFolder(lockFile: string, folder: string, options: LockOptions): Promise<() => void> {
  const nonce = randomBytes(12).toString('hex');
  const content = `${JSON.stringify({ pid: process.pid, since: new Date().toISOString(), command: options.command ?? 'svc-report', nonce })}\n`;
  const deadline = Date.now() + Math.max(0, options.waitMs);
  let told = false;
  for (;;) {
    if (tryCreate(lockFile, content, nonce)) return () => release(lockFile, nonce);
    const seen = readLock(lockFile);
    if (seen === undefined) continue; // gone between our attempt and the read: try again
    const holder = parseHolder(seen);
    if (!holder || !alive(holder.pid)) {
      await takeOverStale(lockFile, seen);
      continue;
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      const who = holder.pid === process.pid ? `${describeHolder(holder).replace(/^process \d+/, 'this process')} still holds it` : `${describeHolder(holder)} holds it`;
      throw new DatabaseBusyError(
        `The database folder ${folder} is in use: ${who}, and it was not free within ${Math.round(options.waitMs / 1000)} s (--db-wait). An embedded database serves one process at a time; wait longer with --db-wait SECONDS, or for several workers or hosts at once use a PostgreSQL server (--db postgres://…).`,
      );
    }
    if (!told) {
      told = true;
      options.onWait?.(holder);
    }
    await changeOrTimeout(lockFile, Math.min(left, options.pollMs ?? 500));
  }
}

function tryCreate(lockFile: string, content: string, nonce: string): boolean {
  const aside = `${lockFile}.${nonce}.new`;
  writeFileSync(aside, content, { flag: 'wx', mode: 0o600 });
  try {
    linkSync(aside, lockFile);
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === 'EEXIST') return false;
    throw e;
  } finally {
    rmSync(aside, { force: true });
  }
}

function release(lockFile: string, nonce: string): void {
  try {
    if (readFileSync(lockFile, 'utf8').includes(`"nonce":"${nonce}"`)) rmSync(lockFile, { force: true });
  } catch {
    /* already gone */
  }
}

function readLock(lockFile: string): string | undefined {
  try {
    return readFileSync(lockFile, 'utf8');
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** The holder a lock names; undefined for one this tool cannot read (treated as stale, as before). */
export function parseHolder(text: string): LockHolder | undefined {
  const bare = text.trim();
  if (/^\d+$/.test(bare)) return { pid: Number(bare) };
  try {
    const j = JSON.parse(bare) as { pid?: unknown; since?: unknown; command?: unknown };
    if (!Number.isInteger(j.pid) || (j.pid as number) <= 0) return undefined;
    return { pid: j.pid as number, since: typeof j.since === 'string' ? j.since : undefined, command: typeof j.command === 'string' ? j.command.slice(0, 200) : undefined };
  } catch {
    return undefined;
  }
}

/**
 * Removes a stale lock, but only the one seen: two waiters finding the same stale lock must not
 * remove each other's fresh one. The removal happens under a short-lived mutex (a folder made
 * exclusively); one left by a process killed inside that instant is old and cleared.
 */
async function takeOverStale(lockFile: string, seen: string): Promise<void> {
  const mutex = `${lockFile}.takeover`;
  try {
    mkdirSync(mutex);
  } catch (e) {
    if ((e as { code?: string }).code !== 'EEXIST') throw e;
    try {
      if (Date.now() - statSync(mutex).mtimeMs > 10_000) rmdirSync(mutex);
    } catch {
      /* gone meanwhile */
    }
    await new Promise((r) => setTimeout(r, 20));
    return;
  }
  try {
    if (readLock(lockFile) === seen) rmSync(lockFile, { force: true });
  } finally {
    rmdirSync(mutex);
  }
}

/** Resolves when the lock file changes (its folder's change events) or after `ms`. */
function changeOrTimeout(lockFile: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    let watcher: ReturnType<typeof watch> | undefined;
    const done = () => {
      clearTimeout(timer);
      watcher?.close();
      resolve();
    };
    const timer = setTimeout(done, ms);
    try {
      watcher = watch(dirname(lockFile), (_event, name) => {
        if (name === null || name === basename(lockFile)) done();
      });
      watcher.on('error', () => {});
    } catch {
      /* no change events here: the timeout alone */
    }
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
}

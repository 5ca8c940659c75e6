import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { DatabaseError } from './errors';

/**
 * The embedded database is one process's at a time (PGlite is Postgres in this process: two
 * processes on one folder would corrupt it). The folder's `owner.lock` holds the owner's pid,
 * created exclusively; a lock whose process is gone is stale and taken over. Several processes
 * sharing a database is what a PostgreSQL server is for.
 */
export function lockFolder(lockFile: string, folder: string): () => void {
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(lockFile, 'utf8').trim() === String(process.pid)) rmSync(lockFile, { force: true });
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as { code?: string }).code !== 'EEXIST' || attempt > 0) throw e;
      const owner = Number(readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && alive(owner)) {
        const who = owner === process.pid ? 'this process already has it open' : `process ${owner} has it open`;
        throw new DatabaseError(
          `The database folder ${folder} is in use: ${who}. An embedded database serves one process at a time; for several workers or hosts use a PostgreSQL server (--db postgres://…).`,
        );
      }
      rmSync(lockFile, { force: true }); // stale: its process is gone
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
}

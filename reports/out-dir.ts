import { mkdir, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from './run/exit-codes';

/**
 * Makes sure --out is a folder the job can write into, before any holding is read or any call
 * is spent: created if needed, one level at a time (Node's recursive mkdir loops forever where
 * the system answers "no such file" for a parent that exists, as under /proc), then checked by
 * writing and removing an empty file. Problems are a UsageError with a plain sentence.
 */
export async function prepareOutDir(out: string, flag = '--out'): Promise<string> {
  return (await createOutDir(out, flag)).dir;
}

/** prepareOutDir, also saying which folders it created (outermost first), so a refused run can take them back. */
export async function createOutDir(out: string, flag = '--out'): Promise<{ dir: string; created: string[] }> {
  const dir = resolve(out);
  const missing: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    const found = await stat(at).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw cannotWrite(flag, out, e);
    });
    if (found) {
      if (!found.isDirectory()) {
        throw new UsageError(at === dir ? `${flag} ${out} is a file, not a folder: give a folder to write the reports into (it is created if needed)` : `${flag} ${out} cannot be created: ${at} is a file, not a folder`);
      }
      break;
    }
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  const created: string[] = [];
  for (const d of missing) {
    await mkdir(d).then(
      () => void created.push(d),
      (e: NodeJS.ErrnoException) => {
        if (e.code !== 'EEXIST') throw cannotWrite(flag, out, e);
      },
    );
  }
  const probe = join(dir, `.svc-report-write-check-${process.pid}`);
  try {
    await writeFile(probe, '', { flag: 'wx' });
    await unlink(probe);
  } catch (e) {
    throw cannotWrite(flag, out, e as NodeJS.ErrnoException);
  }
  return { dir, created };
}

/**
 * Removes the folders `createOutDir` created, innermost first, while they are empty: a run that
 * stopped before writing anything leaves no empty --out behind. A folder holding anything (a
 * report, a checkpoint for --resume) is kept, and so is every folder above it.
 */
export async function removeCreatedIfEmpty(created: readonly string[]): Promise<void> {
  for (const d of [...created].reverse()) {
    const gone = await rmdir(d).then(
      () => true,
      () => false,
    );
    if (!gone) return;
  }
}

function cannotWrite(flag: string, out: string, e: NodeJS.ErrnoException): UsageError {
  const why: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'the file system is read-only',
    ENOENT: 'the system does not allow a folder there',
    ENOTDIR: 'part of the path is a file, not a folder',
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is used up',
    ENAMETOOLONG: 'the path is too long',
  };
  return new UsageError(`cannot write the reports into ${flag} ${out}: ${why[e.code ?? ''] ?? e.message}; give a folder you can write to`);
}

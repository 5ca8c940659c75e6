import { lstat, mkdir, realpath, stat } from 'node:fs/promises';
import { join, relative, isAbsolute } from 'node:path';

/** A job's folder that is not inside the worker's --out: the job is refused, nothing written. */
export class FolderRefused extends Error {
  override name = 'FolderRefused';
}

const isInside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

/**
 * The real path of a job's run folder inside `root` (the realpath of the worker's --out), made
 * one level at a time. Each level that exists is resolved with realpath: a link anywhere on the
 * way that leads out of `root` refuses the job, as do "..", an absolute path and a file where a
 * folder belongs. The messages never quote the job's folder.
 */
export async function runFolderInside(root: string, folder: string): Promise<string> {
  if (isAbsolute(folder)) throw new FolderRefused("the job's folder is an absolute path, not one inside the worker's --out");
  const parts = folder.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new FolderRefused('the job\'s folder climbs out of the worker\'s --out ("..")');
  if (parts.length === 0) throw new FolderRefused("the job names no folder inside the worker's --out");
  let at = root;
  for (const part of parts) {
    const next = join(at, part);
    const found = await lstat(next).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
    if (!found) {
      await mkdir(next).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'EEXIST') throw e;
      });
    }
    const real = await realpath(next);
    if (!isInside(root, real)) throw new FolderRefused("the job's folder leads outside the worker's --out (through a link)");
    if (!(await stat(real)).isDirectory()) throw new FolderRefused("the job's folder is a file in the worker's --out, not a folder");
    at = real;
  }
  return at;
}

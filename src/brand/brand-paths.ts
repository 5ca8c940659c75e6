/**
 * The files a brand file names, confined (issue 35): each path is relative to the brand file's
 * folder and stays inside it, or inside the folder an administrator names with --brand-root
 * (ADDIN_BRAND_ROOT for the add-in host), where absolute paths are then allowed too. A link is
 * followed only when it ends inside that folder; what is read is a regular file of bounded size
 * (no FIFO, device or socket; src/regular-file.ts), read once. Errors name the key and the file,
 * never what the file holds.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { readRegularFileSync, UnreadableFile } from '../regular-file';

/** The most each kind of file may hold: far above any real logo, font or managers list. */
export const BRAND_FILE_BYTES = {
  brand: 1 << 20,
  logo: 8 << 20,
  font: 32 << 20,
  managers: 4 << 20,
} as const;

export interface BrandFolder {
  /** Where the brand's files must be: the --brand-root folder (its real path), else the brand file's own folder. */
  root: string;
  /** The folder relative paths start from (the brand file's). */
  base: string;
  /** --brand-root given: absolute paths are allowed, inside it. */
  explicit: boolean;
}

const inside = (root: string, file: string) => {
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The folder a brand file's paths are confined to; throws a message when --brand-root is not a folder that exists. */
export function brandFolder(brandPath: string, root: string | undefined, cwd: string): BrandFolder {
  const base = path.dirname(brandPath);
  if (root === undefined) return { root: base, base, explicit: false };
  let real: string;
  try {
    real = realpathSync(path.resolve(cwd, root));
  } catch {
    throw new Error(`the brand root ${path.resolve(cwd, root)} is not a folder that exists`);
  }
  return { root: real, base, explicit: true };
}

/**
 * Reads the file `given` (the brand file's value for a key): its resolved path and bytes, or a
 * message (never the file's content) saying why not.
 */
export function readBrandPath(folder: BrandFolder, given: string, maxBytes: number): { path: string; bytes: Buffer } | { path: string; problem: string } {
  const full = path.resolve(folder.base, given);
  const allow = folder.explicit ? `inside the brand root ${folder.root}` : `inside the brand file's folder ${folder.root} (an administrator can allow another folder, and absolute paths in it, with --brand-root)`;
  if (given.includes('\0')) return { path: full, problem: 'holds a NUL character; not a file name' };
  if (path.isAbsolute(given) && !folder.explicit) return { path: full, problem: `is an absolute path; paths in a brand file are relative to its folder and stay ${allow}` };
  // Lexically first (`..` out of the folder), then as the links resolve.
  const rootReal = realOr(folder.root);
  const lexical = folder.explicit ? path.resolve(realOr(folder.base), given) : full;
  if (!inside(folder.root, lexical) && !inside(rootReal, lexical)) return { path: full, problem: `is outside the folder the brand's files must be in; they stay ${allow}` };
  let real: string;
  try {
    real = realpathSync(full);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { path: full, problem: code === 'ENOENT' ? 'no such file' : code === 'ENOTDIR' ? 'a folder on its path is a file' : code === 'ELOOP' ? 'a loop of links' : 'cannot be read' };
  }
  if (!inside(rootReal, real)) return { path: full, problem: `is a link to a file outside the folder the brand's files must be in; they stay ${allow}` };
  try {
    return { path: full, bytes: readRegularFileSync(real, maxBytes) };
  } catch (e) {
    if (e instanceof UnreadableFile) return { path: full, problem: e.kind === 'missing' ? 'no such file' : e.message };
    throw e;
  }
}

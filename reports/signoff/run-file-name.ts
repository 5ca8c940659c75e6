/**
 * The one rule for a file name a run's manifest lists, as approval, review and delivery act on
 * it: a plain name inside the run folder (not absolute, no separator, no `..`, no NUL), naming a
 * regular file or nothing. An unsigned manifest proves nothing about who wrote it (anyone who can
 * write the folder can add `../../victim/x.pdf`), so every command checks this, key or no key.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { kindOf } from '../../src/regular-file';
import { UsageError } from '../run/exit-codes';

/** Why `name` is not a plain file name, or undefined when it is. */
export function plainNameProblem(name: string): string | undefined {
  if (name.includes('\0')) return 'holds a NUL character';
  if (path.isAbsolute(name) || path.win32.isAbsolute(name)) return 'is an absolute path';
  if (name.includes('/') || name.includes('\\')) return 'contains a path separator';
  if (name.includes('..')) return 'contains ".."';
  if (name === '.' || name === '') return 'is not a file name';
  return undefined;
}

/** The entry as a manifest or record shows it, quoted and cut short: the name is the attacker's text. */
export const quotedName = (name: string) => JSON.stringify(name.length > 120 ? `${name.slice(0, 120)}…` : name);

/**
 * Refuses (exit 2, naming it) a manifest entry that is not a plain name, or that names a link, a
 * FIFO, a device, a socket or a folder in the run folder. A name with nothing behind it passes
 * here: the commands name missing files in their own words.
 */
export async function checkRunFileName(dir: string, name: string): Promise<void> {
  const problem = plainNameProblem(name);
  if (problem) throw new UsageError(`${path.join(dir, 'manifest.json')} lists ${quotedName(name)}, which ${problem}: a run writes plain file names inside its folder; refused, nothing was done`);
  const st = await fs.lstat(path.join(dir, name)).catch(() => undefined);
  if (st && !st.isFile()) throw new UsageError(`${name} in ${dir} is ${kindOf(st)}, not a regular file: refused, nothing was done (it was not read)`);
}

/**
 * `approve … --deliver DIR`: the client's copy of each approved report of the run, one folder per
 * client (DIR/<portfolio>/<report>.pdf, and <report>.html beside it when the run wrote the web page,
 * issue 38), and nothing else. A file is copied only while its report is approved and it hashes as
 * approved: a report changed, rejected or never approved is never in DIR (a copy an earlier
 * delivery left is taken back, every format of it).
 *
 * The delivery folder is where the files leave the firm, so nothing in it is trusted: a link
 * anywhere on the path (the folder, a client's folder, a file) is refused; files are written as new
 * files (O_EXCL, in the client's folder) and renamed into place, never written through what is
 * there; and only files this command delivered are ever removed, as its record inside the
 * delivery folder (delivery-record.ts) lists them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { kindOf, readRegularFile } from '../../src/regular-file';
import { UsageError } from '../run/exit-codes';
import { reportState } from './approval-state';
import { readDeliveryRecord, saveDeliveryRecord, type DeliveredFile } from './delivery-record';
import type { FolderReport, RunFolder } from './folder-reports';

export interface Delivered {
  copied: string[];
  /** Reports not delivered and why. */
  skipped: { report: string; why: string }[];
  /** Copies an earlier delivery left, taken back (paths). */
  removed: string[];
}

/** The client's folder name: the report's stem without its date ("okafor-household"). */
export const clientFolder = (stem: string) => stem.replace(/-\d{4}-\d{2}-\d{2}$/, '');

/**
 * The client's formats: the PDF (the document of record) and the web page
 * (issue 38), each when the report has it. The data formats (xlsx, csv, json) stay in the firm.
 */
export const DELIVERED_FORMATS = ['pdf', 'html'] as const;
/** A report's files a delivery may hold, by plain name. */
const deliveredNames = (stem: string) => DELIVERED_FORMATS.map((f) => `${stem}.${f}`);

const FILE_MAX_BYTES = 2 ** 31;
const FILE_READ_MS = 600_000;

/**
 * Refuses (exit 2) a delivery folder with a link anywhere on its absolute path, or that is not a
 * folder; and, for the reports given, a client folder or a file in it that is a link or not what
 * delivery writes. Checked before anything is decided, and again as each file is written.
 */
export async function checkDeliveryPaths(to: string, stems: readonly string[] = []): Promise<void> {
  const absolute = path.resolve(to);
  const parts = absolute.split(path.sep).filter(Boolean);
  let at = path.parse(absolute).root;
  for (const part of parts) {
    at = path.join(at, part);
    const st = await fs.lstat(at).catch(() => undefined);
    if (!st) return; // the rest is created by the delivery
    if (st.isSymbolicLink()) throw new UsageError(`--deliver ${to}: ${at} is a symbolic link; delivery never writes through a link (give the real path); refused, nothing was done`);
    if (!st.isDirectory()) throw new UsageError(`--deliver ${to}: ${at} is ${kindOf(st)}, not a folder; refused, nothing was done`);
  }
  for (const stem of stems) {
    const client = path.join(absolute, clientFolder(stem));
    await refuseUnlessKind(client, 'folder');
    for (const name of deliveredNames(stem)) await refuseUnlessKind(path.join(client, name), 'file');
  }
}

/** Nothing there, or a real folder / regular file (not a link): else refused, naming it. */
async function refuseUnlessKind(p: string, kind: 'folder' | 'file'): Promise<void> {
  const st = await fs.lstat(p).catch(() => undefined);
  if (!st) return;
  if (kind === 'folder' ? st.isDirectory() : st.isFile()) return;
  throw new UsageError(`delivery: ${p} is ${kindOf(st)}, not a ${kind === 'folder' ? 'folder' : 'regular file'}; delivery never writes through a link or into something it did not create; refused`);
}

/** Delivers every approved client report of the folder (not only those just decided), and takes back any other. */
export async function deliver(folder: RunFolder, to: string): Promise<Delivered> {
  const out: Delivered = { copied: [], skipped: [], removed: [] };
  await checkDeliveryPaths(to, folder.reports.map((r) => r.stem));
  await fs.mkdir(to, { recursive: true });
  // Again, now that it exists: nothing swapped in while it was made.
  await checkDeliveryPaths(to);
  const record = await readDeliveryRecord(to);
  try {
    for (const r of folder.reports) {
      const state = await reportState(folder, r);
      const approved = state.state === 'approved' ? state.record.files.filter((f) => deliveredNames(r.stem).includes(f.name)) : [];
      if (r.audience !== 'client' || approved.length === 0) {
        // Whatever an earlier delivery left of a report not approved now goes.
        out.removed.push(...(await takeBackFiles(to, record, [r.stem])));
        out.skipped.push({ report: r.stem, why: r.audience !== 'client' ? 'internal report' : state.state === 'draft' ? 'not approved' : state.state === 'approved' ? 'no PDF or web page' : state.state });
        continue;
      }
      // Every file read and checked before any is written: a report is delivered whole or not at all.
      const files: { name: string; bytes: Buffer; sha256: string }[] = [];
      for (const f of approved) {
        const bytes = await readRegularFile(path.join(folder.dir, f.name), { maxBytes: FILE_MAX_BYTES, deadline: Date.now() + FILE_READ_MS });
        files.push({ name: f.name, bytes, sha256: createHash('sha256').update(bytes).digest('hex') });
      }
      if (files.some((f, i) => f.sha256 !== approved[i]!.sha256)) {
        out.removed.push(...(await takeBackFiles(to, record, [r.stem])));
        out.skipped.push({ report: r.stem, why: 'changed after approval' });
        continue;
      }
      const client = clientFolder(r.stem);
      // A format delivered before that this approval does not cover (a rerun without the web page) goes: no stale copy beside the new one.
      const now = new Set(files.map((f) => f.name));
      out.removed.push(...(await takeBack(to, record, deliveredNames(r.stem).filter((n) => !now.has(n)).map((n) => `${client}/${n}`))));
      for (const f of files) {
        const target = await writeNewFile(to, client, f.name, f.bytes);
        record.files = [...record.files.filter((d) => !(d.client === client && d.name === f.name)), { client, name: f.name, sha256: f.sha256, run_folder: path.resolve(folder.dir), at: new Date().toISOString() }];
        out.copied.push(target);
      }
    }
  } finally {
    await saveDeliveryRecord(to, record);
  }
  return out;
}

/**
 * Writes DIR/client/name as a new file: created with O_EXCL beside it (never opening what is
 * there), then renamed over the name, which replaces a regular file and never follows a link
 * (a link there is refused before, and the client's folder is checked again just before the rename).
 */
async function writeNewFile(to: string, client: string, name: string, bytes: Buffer): Promise<string> {
  const folder = path.join(to, client);
  await fs.mkdir(folder).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'EEXIST') throw e;
  });
  await refuseUnlessKind(folder, 'folder');
  const temp = path.join(folder, `.${name}.${randomBytes(6).toString('hex')}.part`);
  const handle = await fs.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o640);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (e) {
    await handle.close();
    await fs.rm(temp, { force: true });
    throw e;
  }
  await handle.close();
  const target = path.join(folder, name);
  try {
    await checkDeliveryPaths(to);
    await refuseUnlessKind(folder, 'folder');
    await refuseUnlessKind(target, 'file');
    await fs.rename(temp, target);
  } catch (e) {
    await fs.rm(temp, { force: true });
    throw e;
  }
  return target;
}

/**
 * Takes back the copies of these reports that the delivery record says were delivered to `to`:
 * only a regular file at a name the record lists, inside a real client folder (not a link); the
 * client's folder goes too once empty. Returns the paths removed.
 */
export function takeBackFiles(to: string, record: { files: DeliveredFile[] }, stems: readonly string[]): Promise<string[]> {
  return takeBack(to, record, stems.flatMap((s) => deliveredNames(s).map((name) => `${clientFolder(s)}/${name}`)));
}

/** takeBackFiles for these "client/name" entries only. */
async function takeBack(to: string, record: { files: DeliveredFile[] }, entries: readonly string[]): Promise<string[]> {
  const removed: string[] = [];
  const wanted = new Set(entries);
  const keep: DeliveredFile[] = [];
  for (const f of record.files) {
    if (!wanted.has(`${f.client}/${f.name}`)) {
      keep.push(f);
      continue;
    }
    const folder = path.join(to, f.client);
    const file = path.join(folder, f.name);
    const folderSt = await fs.lstat(folder).catch(() => undefined);
    const fileSt = folderSt?.isDirectory() ? await fs.lstat(file).catch(() => undefined) : undefined;
    if (folderSt && !folderSt.isDirectory()) throw new UsageError(`delivery: ${folder} is ${kindOf(folderSt)}, not the folder delivery made; nothing taken back through it; refused`);
    if (fileSt && !fileSt.isFile()) throw new UsageError(`delivery: ${file} is ${kindOf(fileSt)}, not the file delivery wrote; not removed; refused`);
    if (fileSt) {
      await fs.rm(file);
      removed.push(file);
    }
    // The client's folder goes too once empty: an empty folder would still name a client.
    if (folderSt) await fs.rmdir(folder).catch(() => {});
  }
  record.files = keep;
  return removed;
}

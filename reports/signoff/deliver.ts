/**
 * `approve … --deliver DIR`: the client's copy of each approved report of the run, one folder per
 * client (DIR/<portfolio>/<report>.pdf), and nothing else. A file is copied only while its report is
 * approved and it hashes as approved, and the copy is hashed again: a report changed, rejected or
 * never approved is never in DIR (a stale copy from an earlier delivery is removed).
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { reportState } from './approval-state';
import type { FolderReport, RunFolder } from './folder-reports';

export interface Delivered {
  copied: string[];
  /** Reports not delivered and why. */
  skipped: { report: string; why: string }[];
}

/** The client's folder name: the report's stem without its date ("okafor-household"). */
const clientFolder = (r: FolderReport) => r.stem.replace(/-\d{4}-\d{2}-\d{2}$/, '');

/** Delivers every approved client report of the folder (not only those just decided), and takes back any other. */
export async function deliver(folder: RunFolder, to: string): Promise<Delivered> {
  const out: Delivered = { copied: [], skipped: [] };
  for (const r of folder.reports) {
    const pdf = `${r.stem}.pdf`;
    const target = path.join(to, clientFolder(r), pdf);
    const state = await reportState(folder, r);
    const approved = state.state === 'approved' ? state.record.files.find((f) => f.name === pdf) : undefined;
    if (r.audience !== 'client' || !approved) {
      // Whatever an earlier delivery left of a report not approved now goes.
      await takeBack(target);
      out.skipped.push({ report: r.stem, why: r.audience !== 'client' ? 'internal report' : state.state === 'draft' ? 'not approved' : state.state });
      continue;
    }
    await fs.mkdir(path.dirname(target), { recursive: true });
    const bytes = await fs.readFile(path.join(folder.dir, pdf));
    if (createHash('sha256').update(bytes).digest('hex') !== approved.sha256) {
      await takeBack(target);
      out.skipped.push({ report: r.stem, why: 'changed after approval' });
      continue;
    }
    await fs.writeFile(target, bytes);
    out.copied.push(target);
  }
  return out;
}

async function takeBack(file: string): Promise<void> {
  await fs.rm(file, { force: true });
  // The client's folder goes too once empty: an empty folder would still name a client.
  await fs.rmdir(path.dirname(file)).catch(() => {});
}

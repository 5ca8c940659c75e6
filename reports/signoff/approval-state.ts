/**
 * Where each report of a folder stands: a draft until a reviewer decides; approved only while
 * every file it was approved with still hashes the same (a report edited after approval is no
 * longer approved); rejected until approved again.
 */
import path from 'node:path';
import { hashRegularFile } from '../../src/regular-file';
import { latestDecisions, type ApprovalRecord } from './approval-record';
import type { FolderReport, RunFolder } from './folder-reports';

export type ReportState =
  | { state: 'draft' }
  | { state: 'approved'; record: ApprovalRecord }
  | { state: 'rejected'; record: ApprovalRecord }
  /** Approved, then a file changed or went missing: no longer approved. */
  | { state: 'changed'; record: ApprovalRecord; files: string[] };

/** Bounds for reading a folder's files here: verify's reader, so a FIFO or link in an approved file's place is "changed", never read. */
const APPROVED_FILE_MAX_BYTES = 2 ** 31;
const APPROVAL_CHECK_MS = 600_000;

/** The approved files that no longer hash as approved (or are gone, or are not regular files), by name. */
export async function changedSinceApproval(dir: string, record: ApprovalRecord): Promise<string[]> {
  const changed: string[] = [];
  const deadline = Date.now() + APPROVAL_CHECK_MS;
  for (const f of record.files) {
    if (f.name !== path.basename(f.name)) {
      changed.push(f.name);
      continue;
    }
    const actual = await hashRegularFile(path.join(dir, f.name), { maxBytes: APPROVED_FILE_MAX_BYTES, deadline }).catch(() => undefined);
    if (actual?.sha256 !== f.sha256) changed.push(f.name);
  }
  return changed;
}

export async function reportState(folder: RunFolder, report: FolderReport): Promise<ReportState> {
  const record = latestDecisions(folder.manifest.approvals ?? []).get(report.stem);
  if (!record) return { state: 'draft' };
  if (record.decision === 'rejected') return { state: 'rejected', record };
  const files = await changedSinceApproval(folder.dir, record);
  // A file of the report the approval did not cover (written since) also unsettles it.
  const covered = new Set(record.files.map((f) => f.name));
  const added = report.files.filter((f) => !covered.has(f));
  return files.length + added.length > 0 ? { state: 'changed', record, files: [...files, ...added] } : { state: 'approved', record };
}

/** The state in a few words, for review and verify. */
export function describeState(s: ReportState): string {
  switch (s.state) {
    case 'draft':
      return 'draft (not approved)';
    case 'approved':
      return `approved by ${s.record.by} at ${s.record.at}${s.record.signature ? ', PDF signed' : ''}`;
    case 'rejected':
      return `rejected by ${s.record.by} at ${s.record.at}: ${s.record.reason ?? ''}`;
    case 'changed':
      return `NOT APPROVED: changed after ${s.record.by} approved it at ${s.record.at} (${s.files.join(', ')})`;
  }
}

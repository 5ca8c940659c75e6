import { ManifestError, readManifest } from '../run-manifest';
import { latestDecisions } from '../signoff/approval-record';

/**
 * Why a worker must not write into this run folder, or undefined: its manifest records an
 * approval (a signed-off month-end is never overwritten by a job, whatever the job says), or a
 * manifest is there that cannot be read to tell (a link, a FIFO, not a manifest). No manifest: a
 * folder no run finished yet. Read with the manifest's own reader (regular files only, bounded);
 * the reason quotes nothing of the file.
 */
export async function refusalForApprovedFolder(dir: string): Promise<string | undefined> {
  let approvals;
  try {
    approvals = (await readManifest(dir)).approvals ?? [];
  } catch (e) {
    if (e instanceof ManifestError && e.missing) return undefined;
    return "the run folder's manifest.json cannot be read to check it for approvals (not a regular file, too large, or not a manifest): nothing is written there";
  }
  const approved = [...latestDecisions(approvals).values()].filter((r) => r.decision === 'approved').length;
  if (approved === 0) return undefined;
  return `the run folder's manifest records ${approved} approved report${approved === 1 ? '' : 's'}: a signed-off folder is never written into`;
}

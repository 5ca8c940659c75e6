import type { PortfolioJobData } from './jobs';
import { RUN_LIFETIME_MS, sameFormats, type QueueRuns } from './run-record';

/**
 * Whether a verified job may run now, for its run: why not, or undefined. A signed job is valid
 * once, for one run: before its expiry, while its run's signed record is open and names the same
 * input, folder, formats and expiry, when the run queued this very job with this portfolio (its
 * content digest); a job a worker already completed is not executed again (worker.ts answers
 * with the result recorded then: run-record.ts). So a job captured from Redis and
 * added back later (after the run, during a later run, after approval) is refused unexecuted.
 * The reasons name what differs, never a value the job carries.
 */
export async function refusalForRun(runs: QueueRuns, id: string, d: PortfolioJobData, now = Date.now()): Promise<string | undefined> {
  if (!(Date.parse(d.expiresAt) > now)) return `the job expired at ${d.expiresAt} (a job is valid for ${RUN_LIFETIME_MS / 3_600_000} hours from its run's start): run the month-end again with --resume`;
  const run = await runs.read(d.runId);
  if (!run) return 'its run is unknown to the coordinator (no signed record of the run in Redis: it never started, has expired, or was removed)';
  const differs = [run.runKey !== d.runKey && 'input (run key)', run.folder !== d.folder && 'folder', !sameFormats(run.formats, d.formats) && 'formats', run.expiresAt !== d.expiresAt && 'expiry'].filter(Boolean);
  if (differs.length > 0) return `the job differs from its run's record in: ${differs.join(', ')}`;
  if (run.status === 'finished') return 'its run has finished (a job is executed only while its run is open)';
  const digest = await runs.jobDigest(d.runId, id);
  if (digest === undefined) return 'its run did not queue this job';
  // The job's digest is its portfolio's (accept-job.ts); here it must be the one the run recorded for this job.
  if (digest !== d.portfolioSha256) return "its portfolio is not the one its run queued (the content digest differs)";
  return undefined;
}

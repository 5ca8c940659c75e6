import { checkJobData } from './job-schema';
import { jobPurpose, portfolioDigest, type PortfolioJobData } from './jobs';
import type { QueueSigner } from './queue-signer';

/**
 * A job as found in Redis, accepted only when the coordinating run's MAC over it verifies (for
 * this job id), every field of its data is what the CLI's input allows, and its portfolio is the
 * one its content digest names (over the data as signed, before any parsing). Nothing of the job
 * is used before all hold; the reason never quotes the job's data. Whether its run still takes it
 * is run-admission.ts.
 */
export function acceptJob(signer: QueueSigner, id: string | undefined, stored: unknown): { ok: true; data: PortfolioJobData } | { ok: false; why: string } {
  const opened = id === undefined ? undefined : signer.open(jobPurpose(id), stored);
  if (!opened) return { ok: false, why: 'job signature does not verify' };
  const checked = checkJobData(opened.data);
  if (checked.ok && portfolioDigest((opened.data as { portfolio: unknown }).portfolio) !== checked.data.portfolioSha256) return { ok: false, why: "job data portfolioSha256: not the portfolio's content digest" };
  return checked;
}

import { checkJobData } from './job-schema';
import { jobPurpose, type PortfolioJobData } from './jobs';
import type { QueueSigner } from './queue-signer';

/**
 * A job as found in Redis, accepted only when the coordinating run's MAC over it verifies (for
 * this job id) and every field of its data is what the CLI's input allows. Nothing of the job is
 * used before both hold; the reason never quotes the job's data.
 */
export function acceptJob(signer: QueueSigner, id: string | undefined, stored: unknown): { ok: true; data: PortfolioJobData } | { ok: false; why: string } {
  const opened = id === undefined ? undefined : signer.open(jobPurpose(id), stored);
  if (!opened) return { ok: false, why: 'job signature does not verify' };
  return checkJobData(opened.data);
}

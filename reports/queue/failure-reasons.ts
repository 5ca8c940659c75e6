import type { Redis } from 'ioredis';
import type { QueueSigner } from './queue-signer';

/** As long as a run's journal: a --resume within the week still finds why a job failed. */
const FAILURE_TTL_S = 7 * 24 * 3600;

const key = (jobId: string) => `svc-report:failure:{${jobId}}`;
const purpose = (jobId: string) => `failure:${jobId}`;

/**
 * A job's failure reason, signed by the worker that failed it. BullMQ keeps the reason in the
 * job's hash, where anyone who can write to Redis can change it; the coordinating run quotes a
 * reason into its output and the consolidated report only when the worker's signed copy of
 * exactly that text is here (signedFailure), as it uses a result only when its MAC verifies.
 */
export async function recordFailure(redis: Redis, signer: QueueSigner, jobId: string, reason: string): Promise<void> {
  await redis.set(key(jobId), JSON.stringify(signer.sign(purpose(jobId), reason)), 'EX', FAILURE_TTL_S);
}

/** Whether `reason` (a failed job's reason as BullMQ gives it) is the one a worker signed for this job. */
export async function signedFailure(redis: Redis, signer: QueueSigner, jobId: string, reason: string): Promise<boolean> {
  const raw = await redis.get(key(jobId)).catch(() => null);
  if (raw === null) return false;
  try {
    const opened = signer.open(purpose(jobId), JSON.parse(raw));
    return opened?.data === reason;
  } catch {
    return false;
  }
}

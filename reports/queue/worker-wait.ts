import type { Queue } from 'bullmq';

/** How long `run --queue` waits for a worker to take something before it says so (--worker-wait). */
export const DEFAULT_WORKER_WAIT_S = 30;

/**
 * A run on the queue with no worker waits forever, in silence, unless told: after `afterMs`
 * without any of this run's portfolios taken (no progress, nothing active or finished), it says
 * so once, with how many workers Redis sees and how to start one. The run keeps waiting: a worker
 * started then picks the portfolios up.
 */
export function noticeIdleQueue(queue: Queue, jobIds: readonly string[], taken: () => boolean, log: (line: string) => void, afterMs = DEFAULT_WORKER_WAIT_S * 1000): { stop(): void } {
  const timer = setTimeout(() => void check(), afterMs);
  timer.unref();
  async function check(): Promise<void> {
    if (taken()) return;
    try {
      const states = await Promise.all(jobIds.map((id) => queue.getJobState(id)));
      if (states.some((s) => s === 'active' || s === 'completed' || s === 'failed')) return;
      const workers = await queue.getWorkersCount();
      const seconds = Math.round(afterMs / 1000);
      log(
        `No worker has taken any of this run's portfolios in ${seconds} s (${workers === 0 ? 'no worker is connected to this Redis' : `${workers} worker${workers === 1 ? ' is' : 's are'} connected, busy with other work`}). ` +
          'Start one with the same service, credentials and Redis, on this machine or another: svc-report worker --redis URL (see svc-report worker --help). The portfolios wait on the queue; this run goes on waiting for them.',
      );
    } catch {
      // Redis away: the gate says so; nothing to add.
    }
  }
  return { stop: () => clearTimeout(timer) };
}

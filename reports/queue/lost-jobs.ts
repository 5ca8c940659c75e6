import type { Queue } from 'bullmq';

/** A job as the coordinating run added it: enough to add it again under the same id. */
export interface JobSpec<D> {
  name: string;
  data: D;
  opts: { jobId: string; attempts: number; backoff: { type: 'exponential'; delay: number } };
}

/**
 * Redis restarted without persistence (or was flushed) while the run waited: its jobs are
 * gone, and nothing would ever finish them. Every `everyMs` the run asks BullMQ for the state
 * of the jobs it still waits for; one Redis no longer knows is added again under the same id,
 * once `restore` has recorded the run again (the run's waiting, keyed by job id, picks its end up). The chunks journaled in the lost
 * Redis are gone too: those holdings are valued again.
 */
export function requeueLostJobs<D, R>(queue: Queue<D, R>, jobs: readonly JobSpec<D>[], waiting: (id: string) => boolean, log: (line: string) => void, restore: () => Promise<void>, everyMs = 2000): { stop(): void } {
  let busy = false;
  const check = async () => {
    if (busy) return;
    busy = true;
    try {
      const lost: JobSpec<D>[] = [];
      for (const job of jobs) if (waiting(job.opts.jobId) && (await queue.getJobState(job.opts.jobId)) === 'unknown') lost.push(job);
      if (lost.length === 0) return;
      log(`Redis no longer has ${lost.length} of this run's portfolio job${lost.length === 1 ? '' : 's'} (it restarted without persistence?): queued again; holdings it had recorded are valued again.`);
      // BullMQ types add()'s name and data through conditional types of D; the spec holds exactly those.
      type Add = Parameters<Queue<D, R>['add']>;
      // The run's own record went with them: recorded again first, or the workers would refuse the jobs as of an unknown run.
      await restore();
      for (const job of lost) await queue.add(job.name as Add[0], job.data as Add[1], job.opts);
    } catch {
      // Redis away: the gate and the workers say so; try again at the next check.
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void check(), everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

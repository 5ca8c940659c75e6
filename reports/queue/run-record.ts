import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { ReportFormat } from '../report-data';
import type { QueueSigner } from './queue-signer';

/**
 * How long a run, and every job it signs, stays valid: a month-end fits in a day by the budget's
 * pre-check; two days leave room for workers that were down for a day. After it, a job is
 * refused and `--resume` starts a new run (what landed in the journal, 7 days, is kept).
 */
export const RUN_LIFETIME_MS = 48 * 3600 * 1000;

/** A resumed run keeps its run id only while this much of its life is left (else its jobs could expire on the way). */
const RESUME_MARGIN_MS = RUN_LIFETIME_MS / 4;

/** A run as the coordinating run records it in Redis (signed): what its jobs must say, and whether it still takes work. */
export interface RunRecord {
  runKey: string;
  folder: string;
  formats: ReportFormat[];
  expiresAt: string;
  /** open: its jobs are executed; finished: every job ended and the run wrote its reports (a --resume opens it again). */
  status: 'open' | 'finished';
}

const RunRecordSchema = z
  .object({ runKey: z.string(), folder: z.string(), formats: z.array(z.string()), expiresAt: z.string(), status: z.enum(['open', 'finished']) })
  .strict() as z.ZodType<RunRecord>;

/** A worker's record that it completed a job for a run: when, and what it returned. */
export interface CompletedJob {
  at: string;
  result: unknown;
}

const CompletedJobSchema = z.object({ at: z.string(), result: z.unknown() }).strict() as z.ZodType<CompletedJob>;

/** The run the coordinating run is in: its id and when it (and every job it signs) expires. */
export interface QueueRun {
  runId: string;
  expiresAt: string;
}

const runKey = (runId: string) => `svc-report:run:{${runId}}`;
const jobsKey = (runId: string) => `svc-report:run:{${runId}}:jobs`;
const doneKey = (runId: string) => `svc-report:run:{${runId}}:done`;
const currentKey = (inputKey: string) => `svc-report:run-of:{${inputKey}}`;

/**
 * The runs of the queue in Redis, every value signed with the queue secret and bound to its run
 * (and job): the run's record (`svc-report:run:{id}`), the jobs it queued with their portfolios'
 * digests (`…:jobs`), the jobs a worker completed (`…:done`), and, per input, the run a
 * `--resume` continues (`svc-report:run-of:{runKey}`). Everything expires with the run. A value
 * that does not verify is as if absent: nobody without the secret can open, list or complete a
 * job; deleting is all they can do, and a deleted record refuses the run's jobs.
 */
export class QueueRuns {
  constructor(
    private readonly redis: Redis,
    private readonly signer: QueueSigner,
  ) {}

  /**
   * The coordinating run's start: a `--resume` continues the input's current run when it is for
   * the same folder and formats and has time left; otherwise a new run (random id) is recorded,
   * and the input's earlier run, if still open, is finished so that its leftover jobs are refused
   * (`replaced`: its id, for the caller to remove those jobs).
   */
  async begin(spec: Pick<RunRecord, 'runKey' | 'folder' | 'formats'>, resume: boolean, now = Date.now()): Promise<QueueRun & { replaced?: string }> {
    const current = await this.current(spec.runKey);
    const record = current === undefined ? undefined : await this.read(current);
    if (resume && record && record.folder === spec.folder && sameFormats(record.formats, spec.formats) && Date.parse(record.expiresAt) - now >= RESUME_MARGIN_MS) {
      await this.write(current!, { ...record, status: 'open' });
      return { runId: current!, expiresAt: record.expiresAt };
    }
    if (record?.status === 'open') await this.write(current!, { ...record, status: 'finished' });
    const run = { runId: randomBytes(16).toString('hex'), expiresAt: new Date(now + RUN_LIFETIME_MS).toISOString() };
    await this.write(run.runId, { ...spec, expiresAt: run.expiresAt, status: 'open' });
    await this.redis.set(currentKey(spec.runKey), JSON.stringify(this.signer.sign(`run-of:${spec.runKey}`, run.runId)), 'PXAT', Date.parse(run.expiresAt));
    return { ...run, replaced: current };
  }

  /** The run `--resume` would continue for this input, when its pointer verifies. */
  async current(inputKey: string): Promise<string | undefined> {
    const opened = this.open(`run-of:${inputKey}`, await this.redis.get(currentKey(inputKey)));
    return typeof opened === 'string' && /^[0-9a-f]{32}$/.test(opened) ? opened : undefined;
  }

  /** Records (again) the jobs the run queued, each with its portfolio's digest; also after Redis lost them (restarted empty). */
  async register(runId: string, record: RunRecord, jobs: readonly { id: string; portfolioSha256: string }[]): Promise<void> {
    await this.write(runId, record);
    if (jobs.length === 0) return;
    const fields = jobs.flatMap((j) => [j.id, JSON.stringify(this.signer.sign(`run-job:${runId}:${j.id}`, j.portfolioSha256))]);
    await this.redis.multi().hset(jobsKey(runId), ...fields).pexpireat(jobsKey(runId), Date.parse(record.expiresAt)).exec();
  }

  /** Every job of the run has ended: from now on its jobs are refused (until a --resume opens it again). */
  async finish(runId: string): Promise<void> {
    const record = await this.read(runId);
    if (record) await this.write(runId, { ...record, status: 'finished' });
  }

  /** The run's record when it verifies; undefined: unknown (never recorded, expired, deleted or forged). */
  async read(runId: string): Promise<RunRecord | undefined> {
    const opened = this.open(`run:${runId}`, await this.redis.get(runKey(runId)));
    const checked = RunRecordSchema.safeParse(opened);
    return checked.success ? checked.data : undefined;
  }

  /** The portfolio digest the run recorded for this job; undefined: the run did not queue it. */
  async jobDigest(runId: string, jobId: string): Promise<string | undefined> {
    const opened = this.open(`run-job:${runId}:${jobId}`, await this.redis.hget(jobsKey(runId), jobId));
    return typeof opened === 'string' ? opened : undefined;
  }

  /**
   * A worker completed the job (its reports written): the result it returned is kept with the
   * mark, so a second execution of the job for this run (BullMQ gives a job whose lock lapsed to
   * another worker, even after it finished) is answered with it instead of executing again.
   */
  async markCompleted(runId: string, jobId: string, expiresAt: string, result: unknown, at = new Date().toISOString()): Promise<void> {
    const mark: CompletedJob = { at, result };
    await this.redis.multi().hset(doneKey(runId), jobId, JSON.stringify(this.signer.sign(`done:${runId}:${jobId}`, mark))).pexpireat(doneKey(runId), Date.parse(expiresAt)).exec();
  }

  /** The job's completion for this run (a signed mark); undefined: not completed. */
  async completed(runId: string, jobId: string): Promise<CompletedJob | undefined> {
    const opened = CompletedJobSchema.safeParse(this.open(`done:${runId}:${jobId}`, await this.redis.hget(doneKey(runId), jobId)));
    return opened.success ? opened.data : undefined;
  }

  /** The coordinating run has the job executed again (its result in Redis did not verify, or it failed): the mark is lifted. */
  async allowAgain(runId: string, jobId: string): Promise<void> {
    await this.redis.hdel(doneKey(runId), jobId);
  }

  private async write(runId: string, record: RunRecord): Promise<void> {
    await this.redis.set(runKey(runId), JSON.stringify(this.signer.sign(`run:${runId}`, record)), 'PXAT', Date.parse(record.expiresAt));
  }

  private open(purpose: string, raw: string | null): unknown {
    if (raw === null) return undefined;
    try {
      return this.signer.open(purpose, JSON.parse(raw))?.data;
    } catch {
      return undefined;
    }
  }
}

export function sameFormats(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((f, i) => f === b[i]);
}

import { extname } from 'node:path';
import { Counter, Gauge } from 'prom-client';
import { ServiceMetrics, logCall, type Log } from '../../src/ops';
import type { CallObserver } from '../../src/client';
import type { PortfolioPhase, RunTelemetry } from '../run/telemetry';

/** Job counts of the BullMQ queue, as `Queue.getJobCounts` answers them. */
export interface QueueCounts {
  getJobCounts(...states: string[]): Promise<Record<string, number>>;
}

const PHASES: readonly PortfolioPhase[] = ['queued', 'in_progress', 'done', 'failed'];
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'completed', 'failed'] as const;

/**
 * The month-end series on top of the service's (src/ops): portfolios by phase, chunks
 * journaled, report files written, when this process last made progress, and, in a worker,
 * the shared queue's job counts. Also the RunTelemetry the run code reports through.
 */
export class ReportMetrics extends ServiceMetrics implements RunTelemetry {
  private readonly portfolios: Gauge<'state'>;
  private readonly chunks: Counter<'phase'>;
  private readonly files: Counter<'format'>;
  private readonly lastProgress: Gauge;

  readonly onCall: CallObserver;
  readonly logger: Log | undefined;

  constructor(log?: Log) {
    super();
    this.onCall = this.observer(log);
    this.logger = log;
    const registers = [this.registry];
    this.portfolios = new Gauge({ name: 'svc_report_portfolios', help: "Month-end portfolios in this process by state: queued (waiting for their turn), in_progress, done, failed (not valued: an error, or today's budget would not cover it).", labelNames: ['state'], registers });
    for (const state of PHASES) this.portfolios.set({ state }, 0);
    this.chunks = new Counter({ name: 'svc_report_chunks_journaled_total', help: 'Chunks of answers (up to 50 holdings) written to the journal as they landed, by phase (valuations, scores).', labelNames: ['phase'], registers });
    this.files = new Counter({ name: 'svc_report_files_written_total', help: 'Report files written, by format (xlsx, csv, json, pdf).', labelNames: ['format'], registers });
    this.lastProgress = new Gauge({ name: 'svc_report_last_progress_timestamp_seconds', help: 'When this process last made progress (a chunk journaled, a portfolio started or finished, or the worker became ready), in seconds since the epoch: a worker silent for long while portfolios wait has stopped taking work.', registers });
    this.touch();
  }

  portfolio(from: PortfolioPhase | undefined, to: PortfolioPhase): void {
    if (from !== undefined) this.portfolios.dec({ state: from });
    this.portfolios.inc({ state: to });
    this.touch();
  }

  chunkJournaled(phase: 'valuations' | 'scores'): void {
    this.chunks.inc({ phase });
    this.touch();
  }

  filesWritten(paths: readonly string[]): void {
    for (const p of paths) this.files.inc({ format: extname(p).slice(1).toLowerCase() || 'other' });
  }

  /** Now is the last progress (a worker that just became ready counts as active). */
  touch(): void {
    this.lastProgress.set(Date.now() / 1000);
  }

  /** `svc_report_queue_jobs{state}`: the shared queue's job counts, read at each scrape (a worker's view of the whole deployment). */
  watchQueue(queue: QueueCounts): void {
    new Gauge({
      name: 'svc_report_queue_jobs',
      help: "Jobs on the month-end queue in Redis by BullMQ state (waiting, active, delayed, completed, failed): every worker reports the same queue, so take max() across them.",
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        try {
          const counts = await queue.getJobCounts(...QUEUE_STATES);
          for (const state of QUEUE_STATES) this.set({ state }, counts[state] ?? 0);
        } catch {
          this.reset(); // Redis away: no figure rather than a stale one
        }
      },
    });
  }
}

/** Without metrics: the client's calls still logged (a 429 or a 5xx at warn, with the request id). */
export function loggingTelemetry(log: Log): RunTelemetry {
  return { onCall: (e) => logCall(log, e), logger: log, portfolio() {}, chunkJournaled() {}, filesWritten() {} };
}

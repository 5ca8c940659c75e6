import { parentPort } from 'node:worker_threads';
import type { DashboardData, ReportData, ReportFormat, WrittenFile } from '../report-data';
import { writeDashboard, writeReport } from '../writers';

/** A request of the writer pool (write-pool.ts), a portfolio's report or the market dashboard, and its answer. */
export type WriteJob = { id: number; outDir: string; formats: ReportFormat[] } & ({ kind: 'report'; data: ReportData } | { kind: 'dashboard'; data: DashboardData });
export type WriteAnswer = { id: number; ok: true; files: WrittenFile[] } | { id: number; ok: false; message: string; name: string };

/** Runs in a worker thread: writes the reports it is sent, one at a time, off the job's event loop. */
parentPort?.on('message', async (job: WriteJob) => {
  let answer: WriteAnswer;
  try {
    const files = job.kind === 'dashboard' ? await writeDashboard(job.data, job.outDir, job.formats) : await writeReport(job.data, job.outDir, job.formats);
    answer = { id: job.id, ok: true, files };
  } catch (e) {
    answer = { id: job.id, ok: false, message: (e as Error)?.message ?? String(e), name: (e as Error)?.name ?? 'Error' };
  }
  parentPort!.postMessage(answer);
});

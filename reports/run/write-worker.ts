import { parentPort } from 'node:worker_threads';
import type { ReportData, ReportFormat, WrittenFile } from '../report-data';
import { writeReport } from '../writers';

/** A request of the writer pool (write-pool.ts) and its answer. */
export interface WriteJob {
  id: number;
  data: ReportData;
  outDir: string;
  formats: ReportFormat[];
}
export type WriteAnswer = { id: number; ok: true; files: WrittenFile[] } | { id: number; ok: false; message: string; name: string };

/** Runs in a worker thread: writes the reports it is sent, one at a time, off the job's event loop. */
parentPort?.on('message', async (job: WriteJob) => {
  let answer: WriteAnswer;
  try {
    answer = { id: job.id, ok: true, files: await writeReport(job.data, job.outDir, job.formats) };
  } catch (e) {
    answer = { id: job.id, ok: false, message: (e as Error)?.message ?? String(e), name: (e as Error)?.name ?? 'Error' };
  }
  parentPort!.postMessage(answer);
});

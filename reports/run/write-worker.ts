import { constants, setPriority } from 'node:os';
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

// Writing yields the CPU to the calls: on a busy machine a writer at the same priority took
// enough of it to hold the run below the account's pace. On Linux the nice value is per thread,
// so this lowers only this writer (elsewhere it would lower the whole process: left alone).
if (process.platform === 'linux') {
  try {
    setPriority(0, constants.priority.PRIORITY_LOW);
  } catch {
    // Not allowed here (a container without the capability): write at the usual priority.
  }
}

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

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../../src/package-root';
import type { DashboardData, ReportData, ReportFormat, WrittenFile } from '../report-data';
import type { WriteAnswer, WriteJob } from './write-worker';

/**
 * Report writing off the job's event loop. Writing a portfolio's PDF and workbook takes longer
 * than its calls at an Enterprise pace (measured: docs/report-job.md), and on the event loop it
 * would hold back the rate gate's timers; in worker threads it overlaps the valuation of the
 * portfolios still in flight. Jobs go to the least busy worker; answers come back by id.
 */
export class WritePool {
  private readonly workers: { worker: Worker; busy: number }[] = [];
  private readonly pending = new Map<number, { resolve(files: WrittenFile[]): void; reject(e: Error): void }>();
  private nextId = 1;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** A worker that failed to start or crashed: every write fails with its error. */
  private broken: Error | undefined;

  constructor(private readonly size = Math.max(1, availableParallelism() - 1)) {}

  /**
   * Workers start at the first report to write, not with the pool: starting one loads the
   * writers (exceljs, pdfkit, fonts), a second or more of CPU that on a busy machine delayed
   * the run's first calls by most of a second.
   */
  private start(): void {
    if (this.workers.length > 0) return;
    for (let k = 0; k < this.size; k++) {
      const worker = startWorker();
      const slot = { worker, busy: 0 };
      worker.on('message', (a: WriteAnswer) => {
        slot.busy--;
        const p = this.pending.get(a.id);
        this.pending.delete(a.id);
        if (!p) return;
        if (a.ok) p.resolve(a.files);
        else p.reject(Object.assign(new Error(a.message), { name: a.name }));
      });
      worker.on('error', (e) => {
        this.broken = e;
        for (const p of this.pending.values()) p.reject(e);
        this.pending.clear();
      });
      this.workers.push(slot);
    }
  }

  write(data: ReportData, outDir: string, formats: readonly ReportFormat[]): Promise<WrittenFile[]> {
    return this.send({ id: this.nextId++, kind: 'report', data, outDir, formats: [...formats] });
  }

  /** The market dashboard's files (the demo's: its PDF is a second of the event loop's CPU that the history months need). */
  writeDashboard(data: DashboardData, outDir: string, formats: readonly ReportFormat[]): Promise<WrittenFile[]> {
    return this.send({ id: this.nextId++, kind: 'dashboard', data, outDir, formats: [...formats] });
  }

  private send(job: WriteJob): Promise<WrittenFile[]> {
    this.start();
    const slot = this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    const answer = new Promise<WrittenFile[]>((resolve, reject) => {
      if (this.broken) return reject(this.broken);
      this.pending.set(job.id, { resolve, reject });
      slot.busy++;
      slot.worker.postMessage(job);
    });
    const tracked = answer.catch(() => {}).finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
    return answer;
  }

  /** Lets the reports being written finish (a writer removes its temporary file itself), then stops the workers. */
  async close(): Promise<void> {
    await Promise.all([...this.inFlight]);
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }
}

/**
 * The compiled worker beside the commands of the build this code is part of (dist/, or a test
 * run's own build): the code is either an entry in cli/ or a shared chunk beside cli/. From the
 * source tree (tsx, vitest) the TypeScript file, through a bootstrap that registers tsx in the
 * worker (a loader registered with --import does not reach worker threads).
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const compiled = [path.join(here, 'report-writer.js'), path.join(here, 'cli', 'report-writer.js')].find((f) => existsSync(f));
    if (compiled) return new Worker(compiled);
  }
  const root = packageRoot();
  const source = pathToFileURL(path.join(root, 'reports/run/write-worker.ts')).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`, { eval: true });
}

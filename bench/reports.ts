/**
 * Benchmark of the report writers: time and peak memory of writing each format for a
 * 100,000-holding portfolio, a 1,000,000-row CSV and a 50-holding client PDF, against
 * exceljs's in-memory workbook (new ExcelJS.Workbook() + writeFile) measured in the same run.
 *
 * The sandbox is not involved at this stage: ReportData is built directly by the deterministic
 * generator in test/report-writers/fixture.ts (holdings are produced lazily on each pass, as a
 * job streaming from its checkpoint would), so the figures are the writers' own.
 *
 * Each measurement runs in its own child process, so peak RSS (the kernel's maxRSS) belongs to
 * that format alone. The child is this file bundled by esbuild and run by plain node, as the
 * shipped CLI would run; tsx's loader would add ~90 MB of its own to every figure.
 *
 * The PDF is measured three ways in the same run: as it was before it became a document of
 * record (pdf-plain: PDF 1.3, untagged, no attachments or fallback fonts — the baseline), as
 * written now (pdf: PDF/A-3a + PDF/UA-1 tagged, JSON and CSV embedded), and with names and
 * descriptions in six scripts (pdf-scripts: the Noto CJK fallbacks parsed and subset).
 *
 *   npx tsx bench/reports.ts            # prints progress, then ONE JSON line last
 *   npx tsx bench/reports.ts --pdf      # the PDF measurements only
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { makeReportData } from '../fixtures/report-data';
import { writeCsv, writeJson, writeXlsx } from '../reports/writers';
import type { Holding, ReportData } from '../reports/report-data';

const run = promisify(execFile);

type Task = 'idle' | 'iterate' | 'xlsx' | 'exceljs-in-memory' | 'csv' | 'json' | 'pdf' | 'pdf-plain' | 'pdf-scripts';

/** Names in Latin, Greek, Cyrillic, Chinese, Japanese and Korean, for pdf-scripts. */
const SCRIPT_NAMES = ['Whitcombe', 'Παπαδόπουλος', 'Смирнов', '陈大文', '山田家', '김철수'];

function withScripts(data: ReportData): ReportData {
  const holdings = data.holdings;
  return {
    ...data,
    cover: { ...data.cover, portfolio_name: '山田家のコレクション', client_name: '김철수 / 陈大文' },
    holdings: { *[Symbol.iterator]() { let i = 0; for (const h of holdings) yield { ...h, description: `${SCRIPT_NAMES[i++ % SCRIPT_NAMES.length]} ${h.description}` }; } },
  } as ReportData;
}

interface ChildResult {
  task: Task;
  holdings: number;
  /** Wall time of the write (milliseconds), holdings generated on the fly included. */
  ms: number;
  /** CPU time of the write, all threads (zlib included): unlike wall time, barely affected by other load on the machine. */
  cpu_ms: number;
  /** Peak resident set of the whole child process (MB), from the kernel. */
  peak_rss_mb: number;
  /** Highest V8 heap use seen (MB), sampled every 5 ms. */
  peak_heap_mb: number;
  bytes: number;
  /** PDF only: loading the PDF writer (pdfkit, fontkit) once per process, the first document after
   * that (fonts read and parsed, code cold), and the median of 5 documents after it. */
  module_load_ms?: number;
  cold_ms?: number;
  warm_median_ms?: number;
  /** PDF only: CPU time of those 5 documents' median (wall time moves with the machine's load, CPU time much less). */
  warm_cpu_median_ms?: number;
}

// ---------------------------------------------------------------------------------------------
// Child: one task, one process
// ---------------------------------------------------------------------------------------------

/** The baseline: exceljs's documented in-memory workbook with the same cells and formats. */
async function exceljsInMemory(data: ReportData, file: string): Promise<void> {
  // Loaded here so the other children never load exceljs (the writers load their libraries lazily too).
  const { default: ExcelJS } = await import('exceljs');
  const { HOLDING_COLUMNS } = await import('../reports/writers/holding-columns');
  const { cellStyles } = await import('../reports/writers/xlsx-styles');
  const { xlsxValue } = await import('../reports/writers/xlsx-cells');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Holdings', { views: [{ state: 'frozen', ySplit: 1 }] });
  const styles = cellStyles(data.cover.currency);
  ws.columns = HOLDING_COLUMNS.map((c) => ({ header: c.label, key: c.key, width: c.width, style: styles[c.kind] }));
  for (const h of data.holdings) ws.addRow(HOLDING_COLUMNS.map((c) => xlsxValue(h[c.key], c.kind)));
  ws.autoFilter = `A1:R${ws.rowCount}`;
  await wb.xlsx.writeFile(file);
}

async function child(task: Task, holdings: number, outDir: string): Promise<void> {
  const generated = makeReportData({ holdings, sandbox: false, previous: true, errors: 20 });
  const data = task === 'pdf-scripts' ? withScripts(generated) : generated;
  const ext = task === 'exceljs-in-memory' ? 'xlsx' : task.startsWith('pdf') ? 'pdf' : task;
  const file = path.join(outDir, `bench-${task}-${holdings}.${ext}`);
  let peakHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 5);
  const result: Partial<ChildResult> = {};
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  switch (task) {
    case 'idle':
      break;
    case 'iterate': {
      let n = 0;
      for (const h of data.holdings as Iterable<Holding>) n += h.row > 0 ? 1 : 0;
      if (n !== holdings) throw new Error('generator miscounted');
      break;
    }
    case 'xlsx':
      await writeXlsx(data, file);
      break;
    case 'exceljs-in-memory':
      await exceljsInMemory(data, file);
      break;
    case 'csv':
      await writeCsv(data, file);
      break;
    case 'json':
      await writeJson(data, file);
      break;
    case 'pdf':
    case 'pdf-plain':
    case 'pdf-scripts': {
      const { writePdf: write } = await import('../reports/writers/pdf');
      const options = { plain: task === 'pdf-plain' };
      result.module_load_ms = performance.now() - started;
      const first = performance.now();
      await write(data, file, options);
      result.cold_ms = performance.now() - first;
      const warm: number[] = [];
      const warmCpu: number[] = [];
      // Repeat small documents only: a large one is measured once.
      for (let i = 0; i < (holdings <= 1000 ? 5 : 0); i++) {
        const t = performance.now();
        const c = process.cpuUsage();
        await write(data, file, options);
        warm.push(performance.now() - t);
        const used = process.cpuUsage(c);
        warmCpu.push((used.user + used.system) / 1000);
      }
      warm.sort((a, b) => a - b);
      warmCpu.sort((a, b) => a - b);
      result.warm_median_ms = warm[2] ?? result.cold_ms;
      result.warm_cpu_median_ms = warmCpu[2] ?? result.warm_median_ms;
      break;
    }
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  clearInterval(sampler);
  let bytes = 0;
  try {
    bytes = statSync(file).size;
  } catch {
    bytes = 0;
  }
  const out: ChildResult = {
    task,
    holdings,
    ms: Math.round(ms),
    cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    peak_heap_mb: Math.round(peakHeap / 1e6),
    bytes,
    ...(result.cold_ms !== undefined
      ? { module_load_ms: Math.round(result.module_load_ms!), cold_ms: Math.round(result.cold_ms), warm_median_ms: Math.round(result.warm_median_ms!), warm_cpu_median_ms: Math.round(result.warm_cpu_median_ms!) }
      : {}),
  };
  rmSync(file, { force: true });
  process.stdout.write(JSON.stringify(out) + '\n');
}

// ---------------------------------------------------------------------------------------------
// Parent: bundle, run each task in a fresh process, report
// ---------------------------------------------------------------------------------------------

async function bundleSelf(): Promise<string> {
  const esbuild = await import('esbuild');
  // Inside the project so the bundle resolves node_modules and finds reports/fonts from the cwd.
  const dir = path.resolve('node_modules/.cache/bench-reports');
  mkdirSync(dir, { recursive: true });
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const outfile = path.join(dir, 'reports.mjs');
  // Code splitting keeps each writer (and the library it loads) in its own chunk, loaded on
  // first use, as the writers' index loads them.
  await esbuild.build({
    entryPoints: [fileURLToPath(import.meta.url)],
    outdir: dir,
    splitting: true,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  return outfile;
}

async function measure(bundle: string, task: Task, holdings: number, outDir: string): Promise<ChildResult> {
  const { stdout } = await run(process.execPath, [bundle, '--child', task, String(holdings), outDir], { maxBuffer: 1 << 20, cwd: process.cwd() });
  const last = stdout.trim().split('\n').pop()!;
  return JSON.parse(last) as ChildResult;
}

async function parent(): Promise<void> {
  const loadStart = os.loadavg()[0]!;
  const bundle = await bundleSelf();
  const outDir = path.join(os.tmpdir(), `bench-reports-${process.pid}`);
  mkdirSync(outDir, { recursive: true });
  const N = 100_000;
  const pdfOnly = process.argv.includes('--pdf');
  const pdfPlan: [Task, number][] = [
    ['pdf-plain', 50],
    ['pdf', 50],
    ['pdf-scripts', 50],
  ];
  const plan: [Task, number][] = pdfOnly ? pdfPlan : [
    ['idle', N],
    ['iterate', N],
    ['xlsx', N],
    ['exceljs-in-memory', N],
    ['csv', N],
    ['json', N],
    ['idle', 1_000_000],
    ['iterate', 1_000_000],
    ['csv', 1_000_000],
    ...pdfPlan,
    ['pdf', N],
  ];
  const results: ChildResult[] = [];
  try {
    for (const [task, n] of plan) {
      const r = await measure(bundle, task, n, outDir);
      results.push(r);
      const extra = r.cold_ms !== undefined ? ` (module load ${r.module_load_ms} ms, first document ${r.cold_ms} ms, then median ${r.warm_median_ms} ms)` : '';
      console.log(`${task.padEnd(18)} ${String(n).padStart(9)} holdings  ${String(r.ms).padStart(6)} ms (cpu ${String(r.cpu_ms).padStart(6)} ms)  peak RSS ${String(r.peak_rss_mb).padStart(4)} MB  heap ${String(r.peak_heap_mb).padStart(4)} MB  ${(r.bytes / 1e6).toFixed(1)} MB${extra}`);
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
  const find = (task: Task, n: number) => results.find((r) => r.task === task && r.holdings === n)!;
  const plain = find('pdf-plain', 50);
  const archival = find('pdf', 50);
  const scripts = find('pdf-scripts', 50);
  const ratio = (a: number | undefined, b: number | undefined) => +((a ?? NaN) / (b ?? NaN)).toFixed(2);
  // Tagging, PDF/A and embedded data against the untagged PDF of before, measured in this run (goal: ≤ 2× time, ≤ 3× size).
  const documentOfRecord = {
    pdf_50_vs_plain: { warm_cpu_ratio: ratio(archival.warm_cpu_median_ms, plain.warm_cpu_median_ms), warm_time_ratio: ratio(archival.warm_median_ms, plain.warm_median_ms), first_document_time_ratio: ratio(archival.cold_ms, plain.cold_ms), size_ratio: ratio(archival.bytes, plain.bytes), bytes: { plain: plain.bytes, archival: archival.bytes } },
    pdf_50_six_scripts_vs_plain: { warm_cpu_ratio: ratio(scripts.warm_cpu_median_ms, plain.warm_cpu_median_ms), warm_time_ratio: ratio(scripts.warm_median_ms, plain.warm_median_ms), first_document_time_ratio: ratio(scripts.cold_ms, plain.cold_ms), size_ratio: ratio(scripts.bytes, plain.bytes), bytes: scripts.bytes },
  };
  const documentGoals = {
    // CPU time: on a shared 2-core machine the wall-time ratio mostly measures the other load.
    pdf_50_at_most_2x_slower: documentOfRecord.pdf_50_vs_plain.warm_cpu_ratio <= 2,
    pdf_50_at_most_3x_larger: documentOfRecord.pdf_50_vs_plain.size_ratio <= 3,
  };
  if (pdfOnly) {
    console.log(JSON.stringify({ bench: 'reports-pdf', node: process.version, cpus: os.cpus().length, loadavg_start: +loadStart.toFixed(2), loadavg_end: +os.loadavg()[0]!.toFixed(2), results, ...documentOfRecord, goals: documentGoals }));
    return;
  }
  const xlsx = find('xlsx', N);
  const inMemory = find('exceljs-in-memory', N);
  const csv1m = find('csv', 1_000_000);
  const pdf = find('pdf', 50);
  const pdfLarge = find('pdf', N);
  const goals = {
    xlsx_100k_under_5s: xlsx.ms < 5000,
    xlsx_100k_under_250mb: xlsx.peak_rss_mb < 250,
    csv_1m_under_8s: csv1m.ms < 8000,
    csv_1m_under_150mb: csv1m.peak_rss_mb < 150,
    pdf_50_under_300ms_warm: (pdf.warm_median_ms ?? Infinity) < 300,
    pdf_50_under_300ms_first_document: (pdf.cold_ms ?? Infinity) < 300,
  };
  console.log(
    JSON.stringify({
      bench: 'reports',
      node: process.version,
      cpus: os.cpus().length,
      // Other work on the machine slows every figure; the 1-minute load average shows how busy it was.
      loadavg_start: +loadStart.toFixed(2),
      loadavg_end: +os.loadavg()[0]!.toFixed(2),
      note: 'ReportData from a deterministic generator (no sandbox); one child process per measurement, plain node on an esbuild bundle',
      results,
      pdf_100k_note: `the PDF lists the 1,000 largest holdings and one line for the rest (${pdfLarge.cold_ms} ms for 100,000)`,
      xlsx_vs_in_memory: { time_ratio: +(xlsx.ms / inMemory.ms).toFixed(2), rss_ratio: +(xlsx.peak_rss_mb / inMemory.peak_rss_mb).toFixed(2) },
      ...documentOfRecord,
      goals: { ...goals, ...documentGoals },
    }),
  );
}

const argv = process.argv.slice(2);
if (argv[0] === '--child') {
  await child(argv[1] as Task, Number(argv[2]), argv[3]!);
} else {
  await parent();
}

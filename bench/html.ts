/**
 * Benchmark of the web page (issue 38): writing the HTML of 1,000 client reports of 50 holdings
 * against writing their PDFs, in the same run and process, from the same ReportData (goal: the
 * HTML ≤ 0.5× the PDF's time); then, in Debian's chromium, the first contentful paint of a
 * 50-holding page at 375 × 812 from file:// (median of 5 loads, goal < 1 s), and the page's size
 * (goal < 400 KB).
 *
 * ReportData comes from the deterministic generator (fixtures/report-data.ts) with a history
 * (value-over-time chart, periods, transactions, realised gains), one seed per client, built
 * before timing, so the figures are the writers' own. Each client's HTML and PDF are written one
 * after the other, the order alternating, so the machine's load falls on both alike. CPU time is
 * the measure (wall time moves with the load, printed with it); ratios, not absolute times.
 *
 *   npx tsx bench/html.ts                 # 1,000 reports; progress on stderr, ONE JSON line last
 *   npx tsx bench/html.ts --reports 100   # fewer, for a quick look
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { makeReportData } from '../fixtures/report-data';
import type { ReportData } from '../reports/report-data';
import { writeHtml, writePdf } from '../reports/writers';
import { runBench } from './support/run-bench';

const HOLDINGS = 50;
const PAINT_LOADS = 5;
const GOAL = { cpu_ratio: 0.5, first_contentful_paint_ms: 1000, bytes: 400 * 1024 };

const reportsArg = process.argv.indexOf('--reports');
const REPORTS = reportsArg > 0 ? Number(process.argv[reportsArg + 1]) : 1000;
if (!Number.isInteger(REPORTS) || REPORTS < 1) throw new Error('--reports takes a whole number of reports, 1 or more');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpuMs = (since: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1000;
};

/** One client's report of 50 holdings with a history, its own seed and name. */
const clientReport = (i: number): ReportData => {
  const data = makeReportData({ holdings: HOLDINGS, seed: 1000 + i, sandbox: false, previous: true, history: true });
  return { ...data, cover: { ...data.cover, portfolio_name: `Client ${String(i + 1).padStart(4, '0')}` } };
};

/** Writes both formats of every report; each format's CPU and wall time in all. */
async function writeBoth(dir: string, reports: readonly ReportData[]): Promise<Record<'html' | 'pdf', { cpu: number; wall: number }>> {
  const total = { html: { cpu: 0, wall: 0 }, pdf: { cpu: 0, wall: 0 } };
  const write = { html: (d: ReportData, f: string) => writeHtml(d, f), pdf: (d: ReportData, f: string) => writePdf(d, f) };
  for (const [i, data] of reports.entries()) {
    for (const format of i % 2 === 0 ? (['html', 'pdf'] as const) : (['pdf', 'html'] as const)) {
      const file = path.join(dir, `${i}.${format}`);
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await write[format](data, file);
      total[format].wall += performance.now() - t0;
      total[format].cpu += cpuMs(c0);
      rmSync(file);
    }
    if ((i + 1) % 50 === 0) process.stderr.write(`${i + 1}/${reports.length} reports\n`);
  }
  return total;
}

/** The page's first contentful paint (ms from navigation), waited for when it has not happened yet. */
const FIRST_CONTENTFUL_PAINT = `new Promise((resolve) => {
  const done = (entries) => { const e = entries.find((x) => x.name === 'first-contentful-paint'); if (e) resolve(e.startTime); return e; };
  if (!done(performance.getEntriesByType('paint'))) new PerformanceObserver((list) => done(list.getEntries())).observe({ type: 'paint', buffered: true });
})`;

/** First contentful paint of the page at 375 × 812 from file://, each load in a fresh context; and its size. */
async function firstPaint(file: string): Promise<number[]> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const paints: number[] = [];
    for (let i = 0; i < PAINT_LOADS; i++) {
      const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
      await context.setOffline(true);
      const page = await context.newPage();
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      // As text: tsx names the functions it compiles (__name), which the page does not have.
      const fcp = (await page.evaluate(FIRST_CONTENTFUL_PAINT)) as number;
      paints.push(fcp);
      await context.close();
    }
    return paints;
  } finally {
    await browser.close();
  }
}

async function main(dir: string): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  const reports = Array.from({ length: REPORTS }, (_, i) => clientReport(i));
  // Warm-up: both writers' modules loaded, fonts parsed, code hot.
  await writeHtml(reports[0]!, path.join(dir, 'warm.html'));
  await writePdf(reports[0]!, path.join(dir, 'warm.pdf'));
  const times = await writeBoth(dir, reports);
  const page = path.join(dir, 'warm.html');
  const bytes = statSync(page).size;
  // The page is one file: nothing else is read to paint it.
  if (!readFileSync(page, 'utf8').startsWith('<!doctype html>')) throw new Error(`${page} is not the web page`);
  const paints = await firstPaint(page);
  rmSync(dir, { recursive: true, force: true });
  const cpuRatio = times.html.cpu / times.pdf.cpu;
  const fcp = median(paints);
  console.log(
    JSON.stringify({
      bench: 'html',
      reports: REPORTS,
      holdings: HOLDINGS,
      load: [+loadBefore.toFixed(1), +os.loadavg()[0]!.toFixed(1)],
      html_cpu_ms_per_report: +(times.html.cpu / REPORTS).toFixed(2),
      pdf_cpu_ms_per_report: +(times.pdf.cpu / REPORTS).toFixed(2),
      cpu_ratio: +cpuRatio.toFixed(3),
      wall_ratio: +(times.html.wall / times.pdf.wall).toFixed(3),
      first_contentful_paint_ms: paints.map((p) => +p.toFixed(1)),
      first_contentful_paint_median_ms: +fcp.toFixed(1),
      bytes,
      goal: GOAL,
      goal_met: { cpu_ratio: cpuRatio <= GOAL.cpu_ratio, first_contentful_paint: fcp < GOAL.first_contentful_paint_ms, bytes: bytes < GOAL.bytes },
    }),
  );
}

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-html-'));
runBench(work, () => main(work));

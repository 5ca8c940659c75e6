/** The report writers: one file per format, and writeReport / writeDashboard which name and place them safely. */
import { promises as fs } from 'node:fs';
import type { DashboardData, DashboardWriter, ReportData, ReportFormat, ReportWriter, WrittenFile } from '../report-data';
import { REPORT_FORMATS } from '../report-data';
import type { WrittenSiblings } from './pdf-attachments';
import { pathInside, slugify } from './safe-path';

export { slugify, pathInside } from './safe-path';
export { neutraliseCellText } from './neutralise';

// Each format's module is loaded on first use: a CSV-only run never loads exceljs or pdfkit
// (tens of megabytes of code and memory), and `--help` stays fast.
export const writeXlsx: ReportWriter = async (data, file) => (await import('./xlsx')).writeXlsx(data, file);
export const writeCsv: ReportWriter = async (data, file) => (await import('./csv')).writeCsv(data, file);
/** The CSV format of a report: the holdings CSV, and the realised gains beside it when the report has a history; returns the further files. */
const writeCsvFiles = async (data: ReportData, file: string): Promise<string[]> => (await import('./csv')).writeCsvFiles(data, file);
export const writeJson: ReportWriter = async (data, file) => (await import('./json')).writeJson(data, file);
/** `siblings`: the JSON and CSV written from the same data just before, embedded as they are instead of written again. */
export const writePdf = async (data: ReportData, file: string, siblings?: WrittenSiblings): Promise<void> => (await import('./pdf')).writePdf(data, file, { siblings });
/** The report as one self-contained web page (issue 38). */
export const writeHtml: ReportWriter = async (data, file) => (await import('./html')).writeHtml(data, file);
export const writeDashboardXlsx: DashboardWriter = async (data, file) => (await import('./dashboard-xlsx')).writeDashboardXlsx(data, file);
export const writeDashboardCsv: DashboardWriter = async (data, file) => (await import('./dashboard-csv')).writeDashboardCsv(data, file);
export const writeDashboardJson: DashboardWriter = async (data, file) => (await import('./dashboard-json')).writeDashboardJson(data, file);
export const writeDashboardHtml: DashboardWriter = async (data, file) => (await import('./dashboard-html')).writeDashboardHtml(data, file);
export const writeDashboardPdf = async (data: DashboardData, file: string, siblings?: WrittenSiblings): Promise<void> => (await import('./dashboard-pdf')).writeDashboardPdf(data, file, siblings);

/**
 * A format's writer; the PDF's also takes the files of the run written before it (the others
 * ignore them). A format of more than one file (the CSV with realised gains) returns the further
 * files it wrote, so the run lists, and its manifest records, every file.
 */
type Writer<T> = (data: T, filePath: string, siblings?: WrittenSiblings) => Promise<void | readonly string[]>;
const REPORT_WRITERS: Record<ReportFormat, Writer<ReportData>> = { xlsx: writeXlsx, csv: writeCsvFiles, json: writeJson, pdf: writePdf, html: writeHtml };
const DASHBOARD_WRITERS: Record<ReportFormat, Writer<DashboardData>> = {
  xlsx: writeDashboardXlsx,
  csv: writeDashboardCsv,
  json: writeDashboardJson,
  pdf: writeDashboardPdf,
  html: writeDashboardHtml,
};

/** "<portfolio-slug>-<as_of>.<ext>", e.g. "smith-family-collection-2026-10-31.xlsx". */
export function reportFileName(data: Pick<ReportData, 'cover'>, format: ReportFormat): string {
  return `${slugify(data.cover.portfolio_name)}-${slugify(data.cover.as_of, 'undated')}.${format}`;
}

export function dashboardFileName(data: Pick<DashboardData, 'as_of'>, format: ReportFormat): string {
  return `market-dashboard-${slugify(data.as_of, 'undated')}.${format}`;
}

function checkFormats(formats: readonly string[]): ReportFormat[] {
  const unknown = formats.filter((f) => !(REPORT_FORMATS as readonly string[]).includes(f));
  if (unknown.length > 0) {
    throw new Error(`Unknown report format ${unknown.map((f) => `"${f}"`).join(', ')}: allowed formats are ${REPORT_FORMATS.join(', ')}.`);
  }
  return [...new Set(formats as ReportFormat[])];
}

async function writeAll<T>(
  data: T,
  outDir: string,
  formats: readonly ReportFormat[],
  fileName: (format: ReportFormat) => string,
  writers: Record<ReportFormat, Writer<T>>,
): Promise<WrittenFile[]> {
  const written: WrittenFile[] = [];
  // The PDF embeds the JSON and CSV: when they are written first, it embeds those files rather than writing them again.
  const siblings: WrittenSiblings = {};
  // One format after another: the big ones (xlsx, pdf) each want the CPU and memory to themselves.
  for (const format of checkFormats(formats)) {
    const filePath = pathInside(outDir, fileName(format));
    const further = (await writers[format](data, filePath, siblings)) ?? [];
    if (format === 'json' || format === 'csv') siblings[format] = filePath;
    for (const file of [filePath, ...further]) written.push({ format, path: file, bytes: (await fs.stat(file)).size });
  }
  return written;
}

/** Writes the portfolio report in each format into outDir (created if needed); returns the files written. */
export function writeReport(data: ReportData, outDir: string, formats: readonly ReportFormat[]): Promise<WrittenFile[]> {
  return writeAll(data, outDir, formats, (f) => reportFileName(data, f), REPORT_WRITERS);
}

/** Writes the market dashboard in each format into outDir; returns the files written. */
export function writeDashboard(data: DashboardData, outDir: string, formats: readonly ReportFormat[]): Promise<WrittenFile[]> {
  return writeAll(data, outDir, formats, (f) => dashboardFileName(data, f), DASHBOARD_WRITERS);
}

/** The report writers: one file per format, and writeReport / writeDashboard which name and place them safely. */
import { promises as fs } from 'node:fs';
import type { DashboardData, DashboardWriter, ReportData, ReportFormat, ReportWriter, WrittenFile } from '../report-data';
import { REPORT_FORMATS } from '../report-data';
import { pathInside, slugify } from './safe-path';
import { writeCsv } from './csv';
import { writeJson } from './json';
import { writeXlsx } from './xlsx';
import { writePdf } from './pdf';
import { writeDashboardCsv } from './dashboard-csv';
import { writeDashboardJson } from './dashboard-json';
import { writeDashboardXlsx } from './dashboard-xlsx';
import { writeDashboardPdf } from './dashboard-pdf';

export { writeCsv, writeJson, writeXlsx, writePdf, writeDashboardCsv, writeDashboardJson, writeDashboardXlsx, writeDashboardPdf };
export { slugify, pathInside } from './safe-path';
export { neutraliseCellText } from './neutralise';

const REPORT_WRITERS: Record<ReportFormat, ReportWriter> = { xlsx: writeXlsx, csv: writeCsv, json: writeJson, pdf: writePdf };
const DASHBOARD_WRITERS: Record<ReportFormat, DashboardWriter> = {
  xlsx: writeDashboardXlsx,
  csv: writeDashboardCsv,
  json: writeDashboardJson,
  pdf: writeDashboardPdf,
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
  writers: Record<ReportFormat, (data: T, filePath: string) => Promise<void>>,
): Promise<WrittenFile[]> {
  const written: WrittenFile[] = [];
  // One format after another: the big ones (xlsx, pdf) each want the CPU and memory to themselves.
  for (const format of checkFormats(formats)) {
    const filePath = pathInside(outDir, fileName(format));
    await writers[format](data, filePath);
    written.push({ format, path: filePath, bytes: (await fs.stat(filePath)).size });
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

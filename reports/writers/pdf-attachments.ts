/**
 * The report's data travels inside its PDF: the JSON (valid against
 * reports/schema/portfolio-report.schema.json) and the CSV are embedded as associated files,
 * byte for byte the files the JSON and CSV writers produce, so one PDF is both what the client
 * reads and what a system can re-import.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { DashboardData, ReportData } from '../report-data';
import type { Attachment } from './pdf-archive';

type Writer<T> = (data: T, filePath: string) => Promise<void>;

interface Embedded<T> {
  ext: 'json' | 'csv';
  type: string;
  description: string;
  write: () => Promise<Writer<T>>;
}

/** Runs `write` into a hidden temporary file beside the PDF and returns its bytes. */
async function produced<T>(data: T, pdfPath: string, ext: string, write: Writer<T>): Promise<Buffer> {
  const temp = path.join(path.dirname(pdfPath), `.${path.basename(pdfPath)}.${process.pid}.embed.${ext}`);
  try {
    await write(data, temp);
    return await fs.readFile(temp);
  } finally {
    await fs.rm(temp, { force: true });
  }
}

async function attachments<T>(data: T, pdfPath: string, files: Embedded<T>[]): Promise<Attachment[]> {
  const base = path.basename(pdfPath).replace(/\.pdf$/i, '');
  const out: Attachment[] = [];
  for (const f of files) out.push({ name: `${base}.${f.ext}`, type: f.type, description: f.description, data: await produced(data, pdfPath, f.ext, await f.write()) });
  return out;
}

export function reportAttachments(data: ReportData, pdfPath: string): Promise<Attachment[]> {
  return attachments(data, pdfPath, [
    { ext: 'json', type: 'application/json', description: 'The report data (schema: portfolio-report.schema.json)', write: async () => (await import('./json')).writeJson },
    { ext: 'csv', type: 'text/csv', description: 'The holdings, one record per holding', write: async () => (await import('./csv')).writeCsv },
  ]);
}

export function dashboardAttachments(data: DashboardData, pdfPath: string): Promise<Attachment[]> {
  return attachments(data, pdfPath, [
    { ext: 'json', type: 'application/json', description: 'The dashboard data', write: async () => (await import('./dashboard-json')).writeDashboardJson },
    { ext: 'csv', type: 'text/csv', description: 'The segment signals, one record per segment', write: async () => (await import('./dashboard-csv')).writeDashboardCsv },
  ]);
}

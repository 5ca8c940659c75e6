/**
 * The report's data travels inside its PDF: the JSON (valid against
 * reports/schema/portfolio-report.schema.json) and the CSV are embedded as associated files,
 * byte for byte the files the JSON and CSV writers produce, so one PDF is both what the client
 * reads and what a system can re-import.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { DashboardData, ReportData } from '../report-data';
import { clientVersion } from './client-version';
import type { Attachment } from './pdf-archive';
import { packFile, type PackedFile } from './pdf-embedded-file';

type Writer<T> = (data: T, filePath: string) => Promise<void>;
export type EmbeddedFormat = 'json' | 'csv';
/** Files the JSON and CSV writers have already written from the same data in this run: embedded as they are, not written again. */
export type WrittenSiblings = Partial<Record<EmbeddedFormat, string>>;

interface Embedded<T> {
  ext: EmbeddedFormat;
  type: string;
  description: string;
  write: () => Promise<Writer<T>>;
}

/** The file `write` produces, packed: from the sibling already written, else through a hidden temporary file beside the PDF. */
async function produced<T>(data: T, pdfPath: string, f: Embedded<T>, written: string | undefined): Promise<PackedFile> {
  if (written) return packFile(written);
  const temp = path.join(path.dirname(pdfPath), `.${path.basename(pdfPath)}.${process.pid}.embed.${f.ext}`);
  try {
    await (await f.write())(data, temp);
    return await packFile(temp);
  } finally {
    await fs.rm(temp, { force: true });
  }
}

async function attachments<T>(data: T, pdfPath: string, siblings: WrittenSiblings, files: Embedded<T>[]): Promise<Attachment[]> {
  const base = path.basename(pdfPath).replace(/\.pdf$/i, '');
  const out: Attachment[] = [];
  for (const f of files) out.push({ name: `${base}.${f.ext}`, type: f.type, description: f.description, data: await produced(data, pdfPath, f, siblings[f.ext]) });
  return out;
}

export function reportAttachments(data: ReportData, pdfPath: string, siblings: WrittenSiblings = {}): Promise<Attachment[]> {
  const embedded = clientVersion(data);
  // The JSON written beside a client PDF is the analyst's (it has their notes): the client's PDF embeds its own version instead.
  const reusable = embedded === data ? siblings : { csv: siblings.csv };
  return attachments(embedded, pdfPath, reusable, [
    { ext: 'json', type: 'application/json', description: 'The report data (schema: portfolio-report.schema.json)', write: async () => (await import('./json')).writeJson },
    { ext: 'csv', type: 'text/csv', description: 'The holdings, one record per holding', write: async () => (await import('./csv')).writeCsv },
  ]);
}

export function dashboardAttachments(data: DashboardData, pdfPath: string, siblings: WrittenSiblings = {}): Promise<Attachment[]> {
  return attachments(data, pdfPath, siblings, [
    { ext: 'json', type: 'application/json', description: 'The dashboard data', write: async () => (await import('./dashboard-json')).writeDashboardJson },
    { ext: 'csv', type: 'text/csv', description: 'The segment signals, one record per segment', write: async () => (await import('./dashboard-csv')).writeDashboardCsv },
  ]);
}

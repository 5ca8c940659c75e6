import type { ReportData } from '../report-data';

/** Placeholder until the pdf writer lands (same signature). */
export async function writePdf(_data: ReportData, _filePath: string): Promise<void> {
  throw new Error('The pdf report writer is not implemented yet.');
}

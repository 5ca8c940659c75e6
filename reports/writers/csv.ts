import type { ReportData } from '../report-data';

/** Placeholder until the csv writer lands (same signature). */
export async function writeCsv(_data: ReportData, _filePath: string): Promise<void> {
  throw new Error('The csv report writer is not implemented yet.');
}

import type { ReportData } from '../report-data';

/** Placeholder until the xlsx writer lands (same signature). */
export async function writeXlsx(_data: ReportData, _filePath: string): Promise<void> {
  throw new Error('The xlsx report writer is not implemented yet.');
}

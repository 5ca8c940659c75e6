import type { ReportData } from '../report-data';

/** Placeholder until the json writer lands (same signature). */
export async function writeJson(_data: ReportData, _filePath: string): Promise<void> {
  throw new Error('The json report writer is not implemented yet.');
}

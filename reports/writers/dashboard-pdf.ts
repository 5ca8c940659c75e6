import type { DashboardData } from '../report-data';

/** Placeholder until the pdf dashboard writer lands (same signature). */
export async function writeDashboardPdf(_data: DashboardData, _filePath: string): Promise<void> {
  throw new Error('The pdf dashboard writer is not implemented yet.');
}

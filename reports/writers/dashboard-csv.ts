import type { DashboardData } from '../report-data';

/** Placeholder until the csv dashboard writer lands (same signature). */
export async function writeDashboardCsv(_data: DashboardData, _filePath: string): Promise<void> {
  throw new Error('The csv dashboard writer is not implemented yet.');
}

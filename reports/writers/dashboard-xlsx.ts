import type { DashboardData } from '../report-data';

/** Placeholder until the xlsx dashboard writer lands (same signature). */
export async function writeDashboardXlsx(_data: DashboardData, _filePath: string): Promise<void> {
  throw new Error('The xlsx dashboard writer is not implemented yet.');
}

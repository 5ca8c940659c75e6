import type { DashboardData } from '../report-data';

/** Placeholder until the json dashboard writer lands (same signature). */
export async function writeDashboardJson(_data: DashboardData, _filePath: string): Promise<void> {
  throw new Error('The json dashboard writer is not implemented yet.');
}

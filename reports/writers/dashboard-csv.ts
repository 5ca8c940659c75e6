import type { DashboardData } from '../report-data';
import { csvValue, writeCsvTable } from './csv';
import { DASHBOARD_SEGMENT_COLUMNS } from './dashboard-columns';

/** The dashboard as CSV: one record per segment with its signals (movers and alerts are in the other formats). */
export async function writeDashboardCsv(data: DashboardData, filePath: string): Promise<void> {
  const rows = data.segments.map((s) => DASHBOARD_SEGMENT_COLUMNS.map((c) => csvValue(s[c.key], c.kind)));
  await writeCsvTable(filePath, DASHBOARD_SEGMENT_COLUMNS.map((c) => c.key), rows);
}

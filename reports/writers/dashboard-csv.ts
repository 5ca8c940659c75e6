import type { DashboardData } from '../report-data';
import { csvValue, headersInLanguage, writeCsvTable, type CsvOptions } from './csv';
import { DASHBOARD_SEGMENT_COLUMNS, dashboardSegmentColumns } from './dashboard-columns';
import { translator } from '../../src/i18n';

/** The dashboard as CSV: one record per segment with its signals (movers and alerts are in the other formats); headers as csv.ts's CsvOptions. */
export async function writeDashboardCsv(data: DashboardData, filePath: string, options: CsvOptions = {}): Promise<void> {
  const rows = data.segments.map((s) => DASHBOARD_SEGMENT_COLUMNS.map((c) => csvValue(s[c.key], c.kind)));
  const header = headersInLanguage(data, options) ? dashboardSegmentColumns(translator(data.language ?? 'en')).map((c) => c.label) : DASHBOARD_SEGMENT_COLUMNS.map((c) => c.key);
  await writeCsvTable(filePath, header, rows);
}

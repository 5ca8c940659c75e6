import type { DashboardSegment } from '../report-data';
import { translator, type Translator } from '../../src/i18n';
import { valueLabel } from './labels';
import { defineColumns, localiseColumns, type TableColumn } from './table-columns';

export type DashboardColumn = TableColumn<keyof DashboardSegment>;

/** The per-segment signals table of the dashboard, shared by its CSV, XLSX and PDF (defaults: table-columns.ts). */
export const DASHBOARD_SEGMENT_COLUMNS = defineColumns<DashboardColumn>([
  { key: 'segment', label: 'columns.segment_id', width: 13 },
  { key: 'segment_name', label: 'columns.segment', width: 22 },
  { key: 'momentum', label: 'columns.momentum', display: valueLabel },
  { key: 'volume', label: 'columns.volume', width: 14, display: valueLabel },
  { key: 'sentiment', label: 'columns.sentiment', display: valueLabel },
  { key: 'signal_strength', label: 'columns.signal_strength', kind: 'ratio', width: 10 },
  { key: 'price_trend', label: 'columns.price_trend', display: valueLabel },
  { key: 'change_7d_percent', label: 'columns.change_7d', kind: 'percent' },
  { key: 'change_30d_percent', label: 'columns.change_30d', kind: 'percent' },
  { key: 'change_90d_percent', label: 'columns.change_90d', kind: 'percent' },
  { key: 'transaction_count_30d', label: 'columns.sales_30d', kind: 'int', width: 10 },
  { key: 'sentiment_score', label: 'columns.sentiment_score', kind: 'ratio', width: 10 },
]);

/** The segment table's columns labelled in `tr`'s language (English unless given). */
export function dashboardSegmentColumns(tr: Translator = translator('en')): readonly DashboardColumn[] {
  return localiseColumns(DASHBOARD_SEGMENT_COLUMNS, tr);
}

import type { DashboardSegment } from '../report-data';
import { readable } from './labels';
import { defineColumns, type TableColumn } from './table-columns';

export type DashboardColumn = TableColumn<keyof DashboardSegment>;

/** The per-segment signals table of the dashboard, shared by its CSV, XLSX and PDF (defaults: table-columns.ts). */
export const DASHBOARD_SEGMENT_COLUMNS = defineColumns<DashboardColumn>([
  { key: 'segment', label: 'Segment id', width: 13 },
  { key: 'segment_name', label: 'Segment', width: 22 },
  { key: 'momentum', display: readable },
  { key: 'volume', width: 14, display: readable },
  { key: 'sentiment', display: readable },
  { key: 'signal_strength', kind: 'ratio', width: 10 },
  { key: 'price_trend', display: readable },
  { key: 'change_7d_percent', label: '7 days', kind: 'percent' },
  { key: 'change_30d_percent', label: '30 days', kind: 'percent' },
  { key: 'change_90d_percent', label: '90 days', kind: 'percent' },
  { key: 'transaction_count_30d', label: 'Sales 30d', kind: 'int', width: 10 },
  { key: 'sentiment_score', kind: 'ratio', width: 10 },
]);

import type { DashboardSegment } from '../report-data';
import type { ValueKind } from './holding-columns';
import { readable } from './labels';

export interface DashboardColumn {
  key: keyof DashboardSegment;
  label: string;
  kind: ValueKind;
  width: number;
  /** What people read instead of the code (XLSX); the CSV and JSON keep the code. */
  display?: (value: string) => string;
}

/** The per-segment signals table of the dashboard, shared by its CSV, XLSX and PDF. */
export const DASHBOARD_SEGMENT_COLUMNS: readonly DashboardColumn[] = [
  { key: 'segment', label: 'Segment id', kind: 'text', width: 13 },
  { key: 'segment_name', label: 'Segment', kind: 'text', width: 22 },
  { key: 'momentum', label: 'Momentum', kind: 'text', width: 11, display: readable },
  { key: 'volume', label: 'Volume', kind: 'text', width: 14, display: readable },
  { key: 'sentiment', label: 'Sentiment', kind: 'text', width: 11, display: readable },
  { key: 'signal_strength', label: 'Signal strength', kind: 'ratio', width: 10 },
  { key: 'price_trend', label: 'Price trend', kind: 'text', width: 11, display: readable },
  { key: 'change_7d_percent', label: '7 days', kind: 'percent', width: 9 },
  { key: 'change_30d_percent', label: '30 days', kind: 'percent', width: 9 },
  { key: 'change_90d_percent', label: '90 days', kind: 'percent', width: 9 },
  { key: 'transaction_count_30d', label: 'Sales 30d', kind: 'int', width: 10 },
  { key: 'sentiment_score', label: 'Sentiment score', kind: 'ratio', width: 10 },
];

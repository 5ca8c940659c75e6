import type { Holding } from '../report-data';

/** How a value is written: the CSV picks its decimals from it, the XLSX its number format, the PDF its text. */
export type ValueKind = 'int' | 'money' | 'percent' | 'ratio' | 'text' | 'date' | 'bool';

export interface HoldingColumn {
  key: keyof Holding;
  /** Heading for people (XLSX, PDF). The CSV and JSON use `key`. */
  label: string;
  kind: ValueKind;
  /** XLSX column width in characters. */
  width: number;
}

/** The holdings table, one definition for every tabular format. */
export const HOLDING_COLUMNS: readonly HoldingColumn[] = [
  { key: 'row', label: 'Row', kind: 'int', width: 7 },
  { key: 'asset_id', label: 'Asset id', kind: 'text', width: 30 },
  { key: 'description', label: 'Description', kind: 'text', width: 44 },
  { key: 'segment', label: 'Segment', kind: 'text', width: 13 },
  { key: 'quantity', label: 'Qty', kind: 'int', width: 7 },
  { key: 'purchase_price', label: 'Cost', kind: 'money', width: 15 },
  { key: 'purchase_date', label: 'Purchased', kind: 'date', width: 12 },
  { key: 'value_low', label: 'Value low', kind: 'money', width: 15 },
  { key: 'current_value', label: 'Value mid', kind: 'money', width: 15 },
  { key: 'value_high', label: 'Value high', kind: 'money', width: 15 },
  { key: 'confidence', label: 'Confidence', kind: 'ratio', width: 11 },
  { key: 'service_score', label: 'Score', kind: 'int', width: 7 },
  { key: 'momentum', label: 'Momentum', kind: 'text', width: 11 },
  { key: 'return_percent', label: 'Return', kind: 'percent', width: 10 },
  { key: 'weight_percent', label: 'Weight', kind: 'percent', width: 9 },
  { key: 'month_on_month_change', label: 'MoM change', kind: 'money', width: 14 },
  { key: 'month_on_month_percent', label: 'MoM %', kind: 'percent', width: 9 },
  { key: 'market_validated', label: 'Market validated', kind: 'bool', width: 10 },
];

/** Money is shown and exported to the cent, so totals agree across formats. */
export function roundMoney(value: number): number {
  return Math.round(value * 100) / 100;
}

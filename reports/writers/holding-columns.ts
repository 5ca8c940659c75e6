import type { Holding, ReportData } from '../report-data';
import { readable, segmentLabel } from './labels';

/** How a value is written: the CSV picks its decimals from it, the XLSX its number format, the PDF its text. */
export type ValueKind = 'int' | 'money' | 'percent' | 'ratio' | 'rate' | 'text' | 'date' | 'bool';

export interface HoldingColumn {
  key: keyof Holding;
  /** Heading for people (XLSX, PDF). The CSV and JSON use `key`. */
  label: string;
  kind: ValueKind;
  /** XLSX column width in characters. */
  width: number;
  /** Money in the purchase currency rather than the report's (its own number format). */
  purchaseCurrency?: boolean;
  /** Only in the firm's internal consolidated report. */
  internalOnly?: boolean;
  /** What people read instead of the code (XLSX); CSV and JSON keep the code. */
  display?: (value: string) => string;
}

/** The holdings table, one definition for every tabular format. */
export const HOLDING_COLUMNS: readonly HoldingColumn[] = [
  { key: 'portfolio', label: 'Portfolio', kind: 'text', width: 24, internalOnly: true },
  { key: 'row', label: 'Row', kind: 'int', width: 7 },
  { key: 'asset_id', label: 'Asset id', kind: 'text', width: 30 },
  { key: 'description', label: 'Description', kind: 'text', width: 44 },
  { key: 'segment', label: 'Segment', kind: 'text', width: 16, display: segmentLabel },
  { key: 'quantity', label: 'Qty', kind: 'int', width: 7 },
  { key: 'quantity_unit', label: 'Unit', kind: 'text', width: 18 },
  { key: 'purchase_date', label: 'Purchased', kind: 'date', width: 12 },
  { key: 'purchase_currency', label: 'Purchase currency', kind: 'text', width: 10 },
  { key: 'purchase_price_original', label: 'Cost (purchase currency)', kind: 'money', width: 16, purchaseCurrency: true },
  { key: 'fx_rate_purchase', label: 'FX rate at purchase', kind: 'rate', width: 12 },
  { key: 'purchase_price', label: 'Cost', kind: 'money', width: 15 },
  { key: 'fx_rate_as_of', label: 'FX rate at as-of date', kind: 'rate', width: 12 },
  { key: 'value_low', label: 'Value low', kind: 'money', width: 15 },
  { key: 'current_value', label: 'Value mid', kind: 'money', width: 15 },
  { key: 'value_high', label: 'Value high', kind: 'money', width: 15 },
  { key: 'confidence', label: 'Confidence', kind: 'ratio', width: 11 },
  { key: 'service_score', label: 'Score', kind: 'int', width: 7 },
  { key: 'momentum', label: 'Momentum', kind: 'text', width: 11, display: readable },
  { key: 'return_percent', label: 'Return', kind: 'percent', width: 10 },
  { key: 'money_weighted_return_percent', label: 'Return a year (IRR)', kind: 'percent', width: 11 },
  { key: 'weight_percent', label: 'Weight', kind: 'percent', width: 9 },
  { key: 'month_on_month_change', label: 'MoM change', kind: 'money', width: 14 },
  { key: 'month_on_month_percent', label: 'MoM %', kind: 'percent', width: 9 },
  { key: 'net_realisable_value', label: 'Net realisable value', kind: 'money', width: 16 },
  { key: 'market_validated', label: 'Market validated', kind: 'bool', width: 10 },
];

/** The columns of a report's holdings table: the Portfolio column only in the internal consolidated report. */
export function holdingColumns(data: Pick<ReportData, 'cover'>): readonly HoldingColumn[] {
  return data.cover.audience === 'internal' ? HOLDING_COLUMNS : HOLDING_COLUMNS.filter((c) => !c.internalOnly);
}

/** Money is shown and exported to the cent, so totals agree across formats. */
export function roundMoney(value: number): number {
  return Math.round(value * 100) / 100;
}

import type { Holding, ReportData } from '../report-data';
import { readable, segmentLabel } from './labels';
import { defineColumns, type TableColumn } from './table-columns';

export type { ValueKind } from './table-columns';

export interface HoldingColumn extends TableColumn<keyof Holding> {
  /** Money in the purchase currency rather than the report's (its own number format). */
  purchaseCurrency?: boolean;
  /** Only in the firm's internal consolidated report. */
  internalOnly?: boolean;
}

/** The holdings table, one definition for every tabular format (defaults: table-columns.ts). */
export const HOLDING_COLUMNS = defineColumns<HoldingColumn>([
  { key: 'portfolio', width: 24, internalOnly: true },
  { key: 'row', kind: 'int' },
  { key: 'asset_id', width: 30 },
  { key: 'description', width: 44 },
  { key: 'segment', width: 16, display: segmentLabel },
  { key: 'quantity', label: 'Qty', kind: 'int' },
  { key: 'quantity_unit', label: 'Unit', width: 18 },
  { key: 'purchase_date', label: 'Purchased', kind: 'date' },
  { key: 'purchase_currency', width: 10 },
  { key: 'purchase_price_original', label: 'Cost (purchase currency)', kind: 'money', width: 16, purchaseCurrency: true },
  { key: 'fx_rate_purchase', label: 'FX rate at purchase', kind: 'rate' },
  { key: 'purchase_price', label: 'Cost', kind: 'money' },
  { key: 'fx_rate_as_of', label: 'FX rate at as-of date', kind: 'rate' },
  { key: 'value_low', kind: 'money' },
  { key: 'current_value', label: 'Value mid', kind: 'money' },
  { key: 'value_high', kind: 'money' },
  { key: 'confidence', kind: 'ratio' },
  { key: 'service_score', label: 'Score', kind: 'int' },
  { key: 'momentum', display: readable },
  { key: 'return_percent', label: 'Return', kind: 'percent', width: 10 },
  { key: 'money_weighted_return_percent', label: 'Return a year (IRR; held under a year: return since purchase)', kind: 'percent', width: 11 },
  { key: 'weight_percent', label: 'Weight', kind: 'percent' },
  { key: 'month_on_month_change', label: 'MoM change', kind: 'money', width: 14 },
  { key: 'month_on_month_percent', label: 'MoM %', kind: 'percent' },
  { key: 'net_realisable_value', kind: 'money', width: 16 },
  { key: 'market_validated', kind: 'bool' },
]);

/** The columns of a report's holdings table: the Portfolio column only in the internal consolidated report. */
export function holdingColumns(data: Pick<ReportData, 'cover'>): readonly HoldingColumn[] {
  return data.cover.audience === 'internal' ? HOLDING_COLUMNS : HOLDING_COLUMNS.filter((c) => !c.internalOnly);
}

/** Money is shown and exported to the cent, so totals agree across formats. */
export function roundMoney(value: number): number {
  return Math.round(value * 100) / 100;
}

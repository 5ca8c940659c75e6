import type { Holding, ReportData } from '../report-data';
import type { InsuranceItem } from '../../src/insurance/types';
import { translator, type Translator } from '../../src/i18n';
import { segmentLabel, valueLabel } from './labels';
import { defineColumns, localiseColumns, type TableColumn } from './table-columns';

export type { ValueKind } from './table-columns';

export interface HoldingColumn extends TableColumn<keyof Holding> {
  /** Money in the purchase currency rather than the report's (its own number format). */
  purchaseCurrency?: boolean;
  /** Only in the firm's internal consolidated report. */
  internalOnly?: boolean;
}

/** The holdings table, one definition for every tabular format (defaults: table-columns.ts). */
export const HOLDING_COLUMNS = defineColumns<HoldingColumn>([
  { key: 'portfolio', label: 'columns.portfolio', width: 24, internalOnly: true },
  { key: 'row', label: 'columns.row', kind: 'int' },
  { key: 'asset_id', label: 'columns.asset_id', width: 30 },
  { key: 'description', label: 'columns.description', width: 44 },
  { key: 'segment', label: 'columns.segment', width: 16, display: segmentLabel },
  { key: 'quantity', label: 'columns.qty', kind: 'int' },
  { key: 'quantity_unit', label: 'columns.unit', width: 18 },
  { key: 'purchase_date', label: 'columns.purchased', kind: 'date' },
  { key: 'purchase_currency', label: 'columns.purchase_currency', width: 10 },
  { key: 'purchase_price_original', label: 'columns.cost_purchase_currency', kind: 'money', width: 16, purchaseCurrency: true },
  { key: 'fx_rate_purchase', label: 'columns.fx_rate_purchase', kind: 'rate' },
  { key: 'purchase_price', label: 'common.cost', kind: 'money' },
  { key: 'fx_rate_as_of', label: 'columns.fx_rate_as_of', kind: 'rate' },
  { key: 'value_low', label: 'columns.value_low', kind: 'money' },
  { key: 'current_value', label: 'columns.value_mid', kind: 'money' },
  { key: 'value_high', label: 'columns.value_high', kind: 'money' },
  { key: 'confidence', label: 'columns.confidence', kind: 'ratio' },
  { key: 'service_score', label: 'common.score', kind: 'int' },
  { key: 'momentum', label: 'columns.momentum', display: valueLabel },
  { key: 'return_percent', label: 'columns.return', kind: 'percent', width: 10 },
  { key: 'money_weighted_return_percent', label: 'columns.return_a_year', kind: 'percent', width: 11 },
  { key: 'weight_percent', label: 'columns.weight', kind: 'percent' },
  { key: 'month_on_month_change', label: 'columns.mom_change', kind: 'money', width: 14 },
  { key: 'month_on_month_percent', label: 'columns.mom_percent', kind: 'percent' },
  { key: 'net_realisable_value', label: 'columns.net_realisable_value', kind: 'money', width: 16 },
  { key: 'market_validated', label: 'columns.market_validated', kind: 'bool' },
]);

/**
 * The insurance review's columns of the holdings CSV (issue 37), after its others (so a reader by
 * position keeps its columns), only when the report has a review. Keys as the CSV's English header
 * says them; the values are the review item's (codes for the status, as the CSV keeps codes).
 */
export const INSURANCE_CSV_COLUMNS = defineColumns<TableColumn<keyof InsuranceItem> & { header: string }>([
  { key: 'insured_value', header: 'insured_value', label: 'insurance.insured_value', kind: 'money' },
  { key: 'replacement_value', header: 'replacement_value', label: 'insurance.replacement_value', kind: 'money' },
  { key: 'gap', header: 'insurance_gap', label: 'insurance.gap', kind: 'money' },
  { key: 'status', header: 'insurance_status', label: 'insurance.status' },
]);

/** A client report's columns: no Portfolio column (one list, so its translations are made once). */
const CLIENT_HOLDING_COLUMNS = HOLDING_COLUMNS.filter((c) => !c.internalOnly);

/**
 * The columns of a report's holdings table, labelled in `tr`'s language (English unless given):
 * the Portfolio column only in the internal consolidated report.
 */
export function holdingColumns(data: Pick<ReportData, 'cover'>, tr: Translator = translator('en')): readonly HoldingColumn[] {
  return localiseColumns(data.cover.audience === 'internal' ? HOLDING_COLUMNS : CLIENT_HOLDING_COLUMNS, tr);
}

/** Money is shown and exported to the cent, so totals agree across formats. */
export function roundMoney(value: number): number {
  return Math.round(value * 100) / 100;
}

import { basename } from 'node:path';
import type { HoldingValuation, MonthEndInput } from '../../src/db/types';
import type { LedgerEntry } from '../../src/ledger/types';
import type { ImportedHolding, ImportedReport } from './read-reports';

/**
 * A portfolio report as the month-end it records: its value, each holding's valuation, and the
 * ledger a holdings file stands for — each holding a buy on its purchase date, of its quantity,
 * for its purchase price in the report's currency (as src/ledger's holdingAsBuy reads a holdings
 * file), its source the report file and the holding's row.
 */
export function monthEndOf(file: string, report: ImportedReport, run: number, previousAsOf: string | undefined): MonthEndInput {
  const ledger = report.holdings.map((h) => holdingAsBuy(h, report, basename(file)));
  return {
    run,
    portfolio: report.portfolio.name,
    asOf: report.as_of,
    currency: report.currency,
    value: report.summary.current_value,
    netFlows: netFlows(ledger, previousAsOf, report.as_of),
    holdings: report.holdings.map((h) => valuationOf(h, report.currency)),
    ledger,
  };
}

/**
 * The month's net flows: what was bought after the portfolio's previous recorded month-end, up
 * to this one (buys are flows in). The first month-end recorded has none: its holdings are its
 * starting value, not money that came in during the month.
 */
export function netFlows(ledger: readonly LedgerEntry[], previousAsOf: string | undefined, asOf: string): number {
  if (previousAsOf === undefined) return 0;
  const cents = ledger.filter((e) => e.date > previousAsOf && e.date <= asOf).reduce((sum, e) => sum + Math.round(e.amount * 100), 0);
  return cents / 100;
}

function holdingAsBuy(h: ImportedHolding, report: ImportedReport, file: string): LedgerEntry {
  return { portfolio: report.portfolio.name, date: h.purchase_date, type: 'buy', assetId: h.asset_id, quantity: h.quantity, amount: h.purchase_price, currency: report.currency, source: { file, row: h.row } };
}

function valuationOf(h: ImportedHolding, currency: string): HoldingValuation {
  const v: HoldingValuation = { row: h.row, assetId: h.asset_id, quantity: h.quantity, valueMid: h.current_value, currency };
  if (h.description !== undefined) v.description = h.description;
  if (h.value_low != null) v.valueLow = h.value_low;
  if (h.value_high != null) v.valueHigh = h.value_high;
  if (h.confidence != null) v.confidence = h.confidence;
  if (h.market_validated != null) v.marketValidated = h.market_validated;
  if (h.valuation_id !== undefined) v.valuationId = h.valuation_id;
  return v;
}

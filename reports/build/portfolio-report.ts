import type { PortfolioInput } from '../../src/holdings/types';
import { composeDisclaimer, type Holding as ReportHolding, type ReportData, type ReportError } from '../report-data';
import type { PortfolioResults } from '../run/results';
import { describeHolding } from './describe';
import { inputError, valuationError } from './errors';
import { percentOf } from './figures';
import { methodNotes } from './method-notes';
import type { BuildContext } from './context';
import { headline, holdingsKey } from './headline';
import { exitRow, mapSection, performanceComparison, projectionRow, type RowRef } from './sections';


/** The valued holdings as report rows (input order) and the errors for those that were not valued. */
export function holdingRows(input: PortfolioInput, results: PortfolioResults, withPortfolio = false): { rows: ReportHolding[]; errors: ReportError[]; refs: Map<number, RowRef> } {
  const rows: ReportHolding[] = [];
  const errors: ReportError[] = [];
  const refs = new Map<number, RowRef>();
  input.holdings.forEach((h, i) => {
    const v = results.valuations[i];
    if (!v) {
      errors.push(valuationError(h, '', 'the run did not reach this holding', withPortfolio));
      return;
    }
    if (!v.ok) {
      errors.push(valuationError(h, v.field, v.message, withPortfolio));
      return;
    }
    const score = results.scores[i] ?? undefined;
    const value = v.mid;
    const description = describeHolding(h);
    refs.set(i, { row: h.source.row, asset_id: h.assetId, description });
    rows.push({
      row: h.source.row,
      asset_id: h.assetId,
      description,
      segment: h.segment,
      quantity: h.quantity,
      purchase_price: h.purchasePrice,
      purchase_date: h.purchaseDate,
      value_low: v.low ?? v.mid,
      current_value: value,
      value_high: v.high ?? v.mid,
      confidence: v.confidence,
      service_score: score?.service_score ?? v.service_score,
      momentum: v.momentum ?? score?.momentum ?? '',
      return_percent: h.purchasePrice === 0 ? null : ((value - h.purchasePrice) / h.purchasePrice) * 100,
      weight_percent: 0,
      month_on_month_change: null,
      month_on_month_percent: null,
      market_validated: score?.market_validated ?? v.market_validated,
    });
  });
  return { rows, errors, refs };
}

export function buildPortfolioReport(input: PortfolioInput, results: PortfolioResults, ctx: BuildContext): ReportData {
  const { rows, errors, refs } = holdingRows(input, results);
  const ref = (index: number) => refs.get(index)!;
  const head = headline({ client: input.name, portfolio: input.name }, holdingsKey(input), rows, ctx);
  return {
    ...head,
    holdings: rows,
    benchmarks: mapSection(results.performance, performanceComparison),
    projections: mapSection(results.projections, (items) => items.filter((x) => refs.has(x.index)).map((x) => projectionRow(ref(x.index), x.projection))),
    exit_analysis: mapSection(results.exits, (items) => items.filter((x) => refs.has(x.index)).map((x) => exitRow(ref(x.index), x.exit))),
    errors: [
      ...input.problems.map((p) => inputError(p)),
      ...errors,
      ...results.problems.map((message) => ({ row: null, field: '', message })),
    ].sort(byRow),
    method_notes: methodNotes(ctx, { previousFound: head.summary.month_on_month !== null }),
    disclaimer: composeDisclaimer(head.summary, ctx.sandbox),
  };
}

/** Row-tied errors in row order, then the portfolio-level ones. */
export function byRow(a: ReportError, b: ReportError): number {
  return (a.row ?? Number.MAX_SAFE_INTEGER) - (b.row ?? Number.MAX_SAFE_INTEGER);
}

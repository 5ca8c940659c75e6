import type { PortfolioInput } from '../../src/holdings/types';
import type { Holding, ReportData } from '../report-data';
import type { BuildContext } from './context';
import { allocate, concentration, summarise, weigh } from './figures';
import { applyMonthOnMonth } from './previous';
import { reportId } from './report-id';
import { coverage, fxSplit, monthReturn, portfolioMoneyWeighted, timeWeighted, type UnvaluedHolding } from './returns';
import { DEFAULT_VALIDATED_WARNING_PERCENT, validationByValue } from './validation';

/** What identifies a portfolio's content for its report id: rows, assets, quantities, costs and their currency. */
export function holdingsKey(input: PortfolioInput): unknown {
  return input.holdings.map((h) => [h.source.row, h.assetId, h.quantity, h.purchasePrice, ...(h.currency ? [h.currency] : [])]);
}

/**
 * The part every report starts with, single or consolidated: the cover, the summary with its
 * month-on-month change and returns, the allocation and the concentration flags. Weighs the
 * rows in place.
 */
export function headline(
  names: { client: string; portfolio: string; portfolios: string[] },
  content: unknown,
  rows: Holding[],
  unvalued: readonly UnvaluedHolding[],
  ctx: BuildContext,
): Pick<ReportData, 'cover' | 'summary' | 'allocation' | 'concentration'> {
  const base = summarise(rows, ctx.asOf);
  weigh(rows, base.current_value);
  // A previous report in another currency cannot be compared figure for figure.
  const found = ctx.previous?.byPortfolio.get(names.portfolio);
  const previous = found && (found.currency ?? ctx.currency) === ctx.currency ? found : undefined;
  const monthOnMonth = applyMonthOnMonth(rows, base.current_value, previous);
  if (monthOnMonth && previous) monthOnMonth.return_percent = monthReturn(rows, previous, ctx.asOf);
  const allocation = allocate(rows);
  return {
    cover: {
      client_name: names.client,
      portfolio_name: names.portfolio,
      portfolio_id: null,
      as_of: ctx.asOf,
      currency: ctx.currency,
      report_id: reportId(names.portfolio, ctx.asOf, content),
      generated_at: ctx.generatedAt,
      sandbox: ctx.sandbox,
      illustrative_rates: ctx.fx?.kind === 'illustrative',
      prepared_by: ctx.preparedBy,
      audience: names.portfolios.length > 0 ? 'internal' : 'client',
      portfolios: names.portfolios,
    },
    summary: {
      ...base,
      ...validationByValue(rows, ctx.validatedWarningPercent ?? DEFAULT_VALIDATED_WARNING_PERCENT),
      money_weighted_return_percent: portfolioMoneyWeighted(rows, ctx.asOf),
      ...timeWeighted(monthOnMonth, previous),
      ...fxSplit(rows),
      coverage: coverage(rows, unvalued, previous),
      month_on_month: monthOnMonth,
    },
    allocation,
    concentration: concentration(rows, allocation),
  };
}

import type { PortfolioInput } from '../../src/holdings/types';
import type { Holding, ReportData } from '../report-data';
import type { BuildContext } from './context';
import { allocate, concentration, summarise, weigh } from './figures';
import { applyMonthOnMonth } from './previous';
import { reportId } from './report-id';

/** What identifies a portfolio's content for its report id: rows, assets, quantities and costs. */
export function holdingsKey(input: PortfolioInput): unknown {
  return input.holdings.map((h) => [h.source.row, h.assetId, h.quantity, h.purchasePrice]);
}

/**
 * The part every report starts with, single or consolidated: the cover, the summary with its
 * month-on-month change, the allocation and the concentration flags. Weighs the rows in place.
 */
export function headline(
  names: { client: string; portfolio: string },
  content: unknown,
  rows: Holding[],
  ctx: BuildContext,
): Pick<ReportData, 'cover' | 'summary' | 'allocation' | 'concentration'> {
  const base = summarise(rows, ctx.asOf);
  weigh(rows, base.current_value);
  const monthOnMonth = applyMonthOnMonth(rows, base.current_value, ctx.previous?.byPortfolio.get(names.portfolio));
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
      prepared_by: ctx.preparedBy,
    },
    summary: { ...base, month_on_month: monthOnMonth },
    allocation,
    concentration: concentration(rows, allocation),
  };
}

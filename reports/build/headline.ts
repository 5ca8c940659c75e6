import type { PortfolioInput } from '../../src/holdings/types';
import type { Holding, ReportData } from '../report-data';
import type { BuildContext } from './context';
import { allocate, concentration, summarise, weigh } from './figures';
import { applyHoldingChanges, type PortfolioFigures } from './performance';
import { reportId } from './report-id';
import { coverage, fxSplit, type UnvaluedHolding } from './returns';
import { DEFAULT_VALIDATED_WARNING_PERCENT, validationByValue } from './validation';
import { buildTranslator } from './client-language';

/** What identifies a portfolio's content for its report id: rows, assets, quantities, costs and their currency. */
export function holdingsKey(input: PortfolioInput): unknown {
  return input.holdings.map((h) => [h.source.row, h.assetId, h.quantity, h.purchasePrice, ...(h.currency ? [h.currency] : [])]);
}

/**
 * The part every report starts with, single or consolidated: the cover, the summary with its
 * month-on-month change and returns, the allocation and the concentration flags. Weighs the
 * rows in place. Every return and month-on-month figure is the engine's (`figures`, one
 * computation per portfolio and as-of date); the holdings' month column is filled from it unless
 * `monthColumnFilled` (the consolidated report's rows carry each portfolio's own).
 */
export function headline(
  names: { client: string; portfolio: string; portfolios: string[] },
  content: unknown,
  rows: Holding[],
  unvalued: readonly UnvaluedHolding[],
  ctx: BuildContext,
  figures: Pick<PortfolioFigures, 'perf' | 'source'>,
  previousHoldings: readonly { asset_id: string; current_value: number }[] = [],
  monthColumnFilled = false,
): Pick<ReportData, 'cover' | 'summary' | 'allocation' | 'concentration'> {
  const base = summarise(rows, ctx.asOf);
  weigh(rows, base.current_value);
  const { perf } = figures;
  if (!monthColumnFilled) applyHoldingChanges(rows, perf);
  const mom = perf.monthOnMonth;
  const si = perf.sinceInception;
  const tr = buildTranslator(ctx);
  const allocation = allocate(rows, tr);
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
      ...validationByValue(rows, ctx.validatedWarningPercent ?? DEFAULT_VALIDATED_WARNING_PERCENT, tr),
      money_weighted_return_percent: si.mwr_percent,
      time_weighted_return_percent: si.twr_percent,
      twr_from: si.twr_percent === null ? null : si.from,
      returns_since: si.from === null ? null : { from: si.from, days: si.days, annualised: si.annualised },
      returns_unavailable: { money_weighted: si.mwr_unavailable, time_weighted: si.twr_unavailable, month_on_month: perf.monthOnMonthUnavailable, month_return: mom?.return_unavailable ?? null },
      returns_source: figures.source,
      ...fxSplit(rows),
      coverage: coverage(rows, unvalued, previousHoldings),
      month_on_month: mom && { previous_as_of: mom.previous_as_of, previous_value: mom.previous_value, change: mom.change, change_percent: mom.change_percent, return_percent: mom.return_percent },
    },
    allocation,
    concentration: concentration(rows, allocation, tr),
  };
}

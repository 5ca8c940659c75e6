import type { ReportData, ReportSummary } from '../report-data';
import { portfolioPeriod } from './return-period';
import { formatLongDate, formatPercent } from './text-format';

/** A headline figure with the one plain sentence that says what it measures (PDF and xlsx). */
export interface ExplainedFigure {
  label: string;
  sentence: string;
}

/**
 * Net realisable value of the positions the exit analysis covers: their value after the primary
 * channel's commission. `positions` is the rows shown; `holdings` the lines they stand for.
 */
export function netRealisable(data: Pick<ReportData, 'exit_analysis'>): { value: number; positions: number; holdings: number } | null {
  const s = data.exit_analysis;
  if (!s.included || s.data.length === 0) return null;
  return {
    value: s.data.reduce((sum, e) => sum + e.current_value * (1 - e.primary_commission_percent / 100), 0),
    positions: s.data.length,
    holdings: s.data.reduce((n, e) => n + e.holding_count, 0),
  };
}

/** "the 5 largest holdings", or, when identical holdings are grouped, "the 5 largest positions (7 holdings)": the count is the rows shown. */
function largestCovered(nrv: { positions: number; holdings: number }): string {
  if (nrv.positions === nrv.holdings) return `the ${nrv.positions} largest holding${nrv.positions === 1 ? '' : 's'}`;
  return `the ${nrv.positions} largest position${nrv.positions === 1 ? '' : 's'} (${nrv.holdings} holdings, identical ones counted as one position)`;
}

/** One sentence per figure, in the client's words; figures that are not available say why. */
export function figureSentences(data: Pick<ReportData, 'summary' | 'cover' | 'exit_analysis' | 'holdings'>): Record<'change' | 'mwr' | 'twr' | 'fx' | 'asset' | 'coverage' | 'nrv', string> {
  const s = data.summary;
  const cur = data.cover.currency;
  const cov = s.coverage;
  const mom = s.month_on_month;
  const nrv = netRealisable(data);
  const held = portfolioPeriod(s);
  const why = s.returns_unavailable;
  const since = s.returns_since ? formatLongDate(s.returns_since.from) : '';
  return {
    change: mom
      ? `The change in the portfolio's total value since the month-end of ${formatLongDate(mom.previous_as_of)}, money put in and taken out since included.`
      : `Not available: ${why.month_on_month ?? 'no earlier month-end recorded'}.`,
    mwr:
      s.money_weighted_return_percent === null
        ? `Not available: ${why.money_weighted ?? 'not enough history'}.`
        : held.annualised
          ? `The money-weighted return (IRR) since ${since}, the same as on the performance page: the yearly rate that turns the money put in and taken out, on its dates, into today's value — it reflects how much was invested and when.`
          : `The money-weighted return over the ${held.days} days since ${since}, not annualised: a yearly rate from a period under a year would overstate it. It reflects how much was invested and when.`,
    twr:
      s.time_weighted_return_percent === null
        ? `Not available: ${why.time_weighted ?? 'not enough history'}.`
        : `The time-weighted return since ${since}${held.annualised ? ', a rate a year' : ''}, the same as on the performance page: the portfolio's growth month by month with the money put in and taken out left aside, so it measures the assets and not the timing of purchases.`,
    fx: `How much of the gain comes from exchange rates moving between each purchase date and the valuation date (for holdings bought in a currency other than ${cur}).`,
    asset: 'The rest of the gain: what the assets themselves did, in the currency they were bought in.',
    coverage:
      `${formatPercent(cov.valued_percent)} of the portfolio's value was valued for this report (${counted(cov.valued_count, 'holding')})` +
      (cov.carried_over_count > 0 ? `; ${formatPercent(cov.carried_over_percent)} (${cov.carried_over_count}) could not be valued this month and is shown at last report's value, outside the totals` : '') +
      (cov.not_valued_count > 0 ? `; ${formatPercent(cov.not_valued_percent)} (${cov.not_valued_count}, at cost) could not be valued` : '') +
      '.',
    nrv: nrv
      ? `What ${largestCovered(nrv)} would bring after the commission of the best sale channel found by the exit analysis.`
      : 'Not available: the exit analysis is not part of this report.',
  };
}

/** "1 holding", "3 holdings". */
export const counted = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

/** "Time-weighted return since 5 Oct 2024" (a year when the period is longer than one). */
export function timeWeightedLabel(s: Pick<ReportSummary, 'returns_since' | 'time_weighted_return_percent'>): string {
  if (!s.returns_since || s.time_weighted_return_percent === null) return 'Time-weighted return';
  return `Time-weighted return since ${formatLongDate(s.returns_since.from)}${s.returns_since.annualised ? ', a year' : ''}`;
}

/** Why the yearly return since purchase is missing, in the client's words. */
export function annualisedMissing(s: Pick<ReportSummary, 'returns_since'>): string {
  return s.returns_since && !s.returns_since.annualised ? 'not annualised: held under a year' : 'not available';
}

/** The summary page's statement of validation, by value first (the count alone hid 96 % of a portfolio's value). */
export function validatedShare(s: Pick<ReportData['summary'], 'asset_count' | 'market_validated_count' | 'market_validated_percent'>): string {
  return `Market validated: ${formatPercent(s.market_validated_percent)} of the value (${s.market_validated_count} of ${s.asset_count} valuation${s.asset_count === 1 ? '' : 's'}).`;
}

import type { Translator } from '../../src/i18n';
import type { ReportData, ReportSummary } from '../report-data';
import { portfolioPeriod } from './return-period';
import { reasonWords } from '../client-words';
import { NO_EARLIER_MONTH_END, NOT_ENOUGH_HISTORY } from '../../src/performance';

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

/** One sentence per figure, in the client's words (the report's language); figures that are not available say why. */
export function figureSentences(data: Pick<ReportData, 'summary' | 'cover' | 'exit_analysis' | 'holdings'>, tr: Translator): Record<'change' | 'mwr' | 'twr' | 'fx' | 'asset' | 'coverage' | 'nrv', string> {
  const s = data.summary;
  const cur = data.cover.currency;
  const cov = s.coverage;
  const mom = s.month_on_month;
  const nrv = netRealisable(data);
  const held = portfolioPeriod(s);
  const why = s.returns_unavailable;
  const since = s.returns_since ? tr.date(s.returns_since.from) : '';
  // The JSON's reasons are the engine's stable English: said in the client's words.
  const unavailable = (reason: string) => tr.t('pdf.why_unavailable', { reason: reasonWords(tr, reason) });
  return {
    change: mom ? tr.t('pdf.why_change', { date: tr.date(mom.previous_as_of) }) : unavailable(why.month_on_month ?? NO_EARLIER_MONTH_END),
    mwr:
      s.money_weighted_return_percent === null
        ? unavailable(why.money_weighted ?? NOT_ENOUGH_HISTORY)
        : held.annualised
          ? tr.t('pdf.why_mwr', { date: since })
          : tr.t('pdf.why_mwr_short', { days: held.days, date: since }),
    twr:
      s.time_weighted_return_percent === null
        ? unavailable(why.time_weighted ?? NOT_ENOUGH_HISTORY)
        : tr.t('pdf.why_twr', { date: since, annualised: held.annualised ? 'yes' : 'no' }),
    fx: tr.t('pdf.why_fx', { currency: cur }),
    asset: tr.t('pdf.why_asset'),
    coverage: tr.t('pdf.why_coverage', {
      valued: tr.percent(cov.valued_percent),
      count: cov.valued_count,
      carried: cov.carried_over_count > 0 ? 'yes' : 'no',
      carriedPercent: tr.percent(cov.carried_over_percent),
      carriedCount: tr.number(cov.carried_over_count),
      notValued: cov.not_valued_count > 0 ? 'yes' : 'no',
      notValuedPercent: tr.percent(cov.not_valued_percent),
      notValuedCount: tr.number(cov.not_valued_count),
    }),
    // The count is the rows shown: "the 5 largest positions (7 holdings)" when identical holdings are grouped.
    nrv: !nrv
      ? tr.t('pdf.why_nrv_unavailable')
      : nrv.positions === nrv.holdings
        ? tr.t('pdf.why_nrv_holdings', { count: nrv.positions })
        : tr.t('pdf.why_nrv_positions', { positions: nrv.positions, holdings: nrv.holdings }),
  };
}

/** "Time-weighted return since 5 Oct 2024" (a year when the period is longer than one). */
export function timeWeightedLabel(s: Pick<ReportSummary, 'returns_since' | 'time_weighted_return_percent'>, tr: Translator): string {
  if (!s.returns_since || s.time_weighted_return_percent === null) return tr.t('common.twr');
  return tr.t('pdf.twr_since', { date: tr.date(s.returns_since.from), annualised: s.returns_since.annualised ? 'yes' : 'no' });
}

/** Why the yearly return since purchase is missing, in the client's words. */
export function annualisedMissing(s: Pick<ReportSummary, 'returns_since'>, tr: Translator): string {
  return s.returns_since && !s.returns_since.annualised ? tr.t('pdf.annualised_short') : tr.t('pdf.not_available');
}

/** The summary page's statement of validation, by value first (the count alone hid 96 % of a portfolio's value). */
export function validatedShare(s: Pick<ReportData['summary'], 'asset_count' | 'market_validated_count' | 'market_validated_percent'>, tr: Translator): string {
  return tr.t('pdf.validated_share', { percent: tr.percent(s.market_validated_percent), validated: tr.number(s.market_validated_count), count: s.asset_count });
}

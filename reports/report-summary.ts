/**
 * The portfolio report's headline figures: totals, returns since purchase, month on month and
 * coverage. Units and `null` as in report-data.ts (money in cover.currency, `*_percent` in percent units).
 */
export interface MonthOnMonth {
  /** as_of date of the previous report the change is measured against. */
  previous_as_of: string;
  /** Portfolio value in that previous report. */
  previous_value: number;
  /** current_value − previous_value. */
  change: number;
  /** change / previous_value × 100; null when previous_value is 0. Includes money added by new purchases. */
  change_percent: number | null;
  /**
   * The month's return net of new purchases (Modified Dietz over the holdings): the period the
   * time-weighted return links. Null when there was nothing to measure against.
   */
  return_percent: number | null;
}

/** How much of the portfolio's value the totals rest on. Shares in percent of the three together. */
export interface Coverage {
  /** Holdings valued in this run (their value). */
  valued_count: number;
  valued_percent: number;
  /**
   * Holdings not valued in this run that the previous report valued: their previous value is
   * shown here for scale but is not in this report's totals.
   */
  carried_over_count: number;
  carried_over_percent: number;
  /** Holdings with no value at all (weighed at their cost, in the reporting currency, when known). */
  not_valued_count: number;
  not_valued_percent: number;
}

export interface ReportSummary {
  /** Number of holdings valued (rows in `holdings`). */
  asset_count: number;
  /** Number of distinct segments among the holdings. */
  segment_count: number;
  /** Sum of the holdings' purchase prices (cost). */
  total_invested: number;
  /** Sum of the holdings' mid values (the headline value). */
  current_value: number;
  /** Sum of the holdings' low values. */
  current_value_low: number;
  /** Sum of the holdings' high values. */
  current_value_high: number;
  /** current_value − total_invested. */
  gain: number;
  /** Return since purchase: gain / total_invested × 100 (0 when nothing was invested). */
  total_return_percent: number;
  /** Annualised return since purchase (cost-weighted holding period); null when it cannot be computed or the first purchase is under a year old. */
  annualised_return_percent: number | null;
  /**
   * Money-weighted return: the annualised internal rate of return of the purchases (at their
   * dates, in the reporting currency) and today's value (XIRR convention, 365-day years); when
   * the first purchase is under a year before as_of, the period's return, not annualised. Null where it cannot be computed (e.g. every purchase on the as-of date).
   */
  money_weighted_return_percent: number | null;
  /** Time-weighted return, chain-linked over the months of the previous reports since twr_from; null without history. */
  time_weighted_return_percent: number | null;
  /** Start date of the time-weighted return (the as-of date of the first report in the chain); null without history. */
  twr_from: string | null;
  /** Part of the gain due to exchange rates moving between purchase and as-of dates (reporting currency). */
  fx_effect: number;
  /** The rest of the gain: what the assets did in their purchase currencies. fx_effect + asset_effect = gain. */
  asset_effect: number;
  /** Share of value valued in this run, carried over from the previous report, and not valued. */
  coverage: Coverage;
  /** Change against the previous month-end report; null when no previous report exists. */
  month_on_month: MonthOnMonth | null;
  /** Holdings whose valuation is market_validated. */
  market_validated_count: number;
  /** Share of current_value whose valuation is market validated, percent (0 when nothing is valued). */
  market_validated_percent: number;
  /**
   * When that share is under the run's threshold (--validated-warning, default 80): the plain
   * sentence the summary page prints, naming the largest holdings not validated; else null.
   */
  validation_warning: string | null;
}

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
   * The month's time-weighted return, net of the money put in and taken out: the month-to-date
   * period's (history.performance.periods.mtd), the same figure. Null with the reason in
   * `ReportSummary.returns_unavailable.month_return`.
   */
  return_percent: number | null;
}

/** The period the summary's money- and time-weighted returns cover: since the portfolio's first flow. */
export interface ReturnsSince {
  /** The first flow's date (the since-inception period's start). */
  from: string;
  days: number;
  /** Longer than a year: both returns are rates a year. */
  annualised: boolean;
}

/** Why a return figure of the summary is null, in the words every format prints; null where it is given. */
export interface ReturnsUnavailable {
  money_weighted: string | null;
  time_weighted: string | null;
  /** Why month_on_month is null (e.g. "no earlier month-end recorded"). */
  month_on_month: string | null;
  /** Why month_on_month.return_percent is null. */
  month_return: string | null;
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
  /** Return a year since purchase of what is held, each purchase weighing by its cost over the time it has been held; null when it cannot be computed or the first purchase is under a year old. */
  annualised_return_percent: number | null;
  /**
   * The since-inception money-weighted return (history.performance.periods.since_inception's, the
   * same figure): the internal rate of return of every flow of the ledger (purchases, sales, fees,
   * income) at its date and today's value; a rate a year when `returns_since.annualised`, else
   * the period's own. Null with the reason in `returns_unavailable.money_weighted`.
   */
  money_weighted_return_percent: number | null;
  /** The since-inception time-weighted return (the same period's); null with the reason in `returns_unavailable.time_weighted`. */
  time_weighted_return_percent: number | null;
  /** Start date of the time-weighted return (the first flow's date); null when it is not given. */
  twr_from: string | null;
  /** The period both returns cover; null when the ledger has no flow. */
  returns_since: ReturnsSince | null;
  returns_unavailable: ReturnsUnavailable;
  /** Where the earlier month-end values came from, in words: the firm's history database, the previous report, or this report alone. */
  returns_source: string;
  /** Part of the gain due to exchange rates moving between purchase and as-of dates (reporting currency). */
  fx_effect: number;
  /** The rest of the gain: what the assets did in their purchase currencies. fx_effect + asset_effect = gain. */
  asset_effect: number;
  /** Share of value valued in this run, carried over from the previous report, and not valued. */
  coverage: Coverage;
  /** Change against the latest earlier month-end recorded (or the previous report); null when there is none (see returns_unavailable). */
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

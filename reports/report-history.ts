/**
 * The portfolio's own history and performance (issue 23): what the client's portfolio earned over
 * the standard periods, from the firm's records (the ledger and the month-end values recorded in
 * the history database), beside which the service's market measure (`benchmarks`) stays, labelled
 * as the market's. Units and `null` as in report-data.ts (money in cover.currency, `*_percent` in
 * percent units, dates YYYY-MM-DD).
 */
import type { PeriodKey, PeriodPerformance } from '../src/performance';

export { PERIOD_KEYS, type PeriodKey } from '../src/performance';

/** One standard period's performance, as the ledger maths gives it (src/performance/periods.ts), without its day count. */
export type PeriodFigures = Omit<PeriodPerformance, 'days'>;

export interface PortfolioPerformance {
  /** Each standard period where the history covers it; null where it does not (see `unavailable`). */
  periods: Record<PeriodKey, PeriodFigures | null>;
  /** For each null period, why ("not enough history: …"). */
  unavailable: Partial<Record<PeriodKey, string>>;
  /** Month-end values the periods rest on (recorded ones and this report's), earliest first. */
  month_ends: number;
}

/** One sale matched (first in, first out) against one lot it sold from. */
export interface RealisedGainLine {
  asset_id: string;
  /** The asset as the report names it (its holding's description, else the asset id). */
  description: string;
  /** The sale's date and the date the lot was bought. */
  sold: string;
  opened: string;
  quantity: number;
  /** The lot's cost of the quantity sold, at the purchase day's rate. */
  cost: number;
  /** The sale's proceeds for it, at the sale day's rate. */
  proceeds: number;
  /** proceeds − cost. */
  gain: number;
  /** The sale's row in its transactions file. */
  source: string;
  /** The name of the lot sold from, when its buy named it (schema 1.4); null for a lot without a name. */
  lot?: string | null;
  /** What `quantity` counts for wine and spirits, the sale row's case or bottle (schema 1.4); null otherwise. */
  unit?: 'case' | 'bottle' | null;
}

export interface RealisedGain {
  /** Every sale since the first flow, in date order. */
  lines: RealisedGainLine[];
  /** Sum of the lines' gains. */
  total: number;
}

/** One ledger event of the reporting period (after the previous month-end, up to the as-of date). */
export interface TransactionLine {
  date: string;
  type: 'buy' | 'sell' | 'fee' | 'income' | 'transfer_in' | 'transfer_out';
  /** Null for a fee or income on the portfolio as a whole. */
  asset_id: string | null;
  description: string | null;
  /** Units bought, sold or transferred; null for fee and income. */
  quantity: number | null;
  /** What was paid or received, in the row's currency, and in the reporting currency at the day's rate. */
  amount_original: number;
  currency: string;
  amount: number;
  notes: string | null;
  /** Where the row came from: "ledger.csv row 14" (a holdings file's row for a holding's purchase). */
  source: string;
  /** The lot the row opens (a buy or transfer in) or takes from (a sale or transfer out), as the ledger names it (schema 1.4). */
  lot?: string | null;
  /** What `quantity` counts for wine and spirits, case or bottle (schema 1.4); null otherwise. */
  unit?: 'case' | 'bottle' | null;
}

/** One recorded month-end: the value-over-time chart's point. */
export interface ValueHistoryPoint {
  as_of: string;
  value: number;
  /** Money in minus money out since the point before (the first: every flow up to it). */
  net_flows: number;
}

/** The history part of a portfolio report; absent from the consolidated report. */
export interface ReportHistory {
  performance: PortfolioPerformance;
  realised_gain: RealisedGain;
  /** Value minus the cost of what is held (valued holdings; each lot's cost at its purchase day's rate). */
  unrealised_gain: number;
  /** One point per recorded month-end up to this report's, earliest first. */
  value_history: ValueHistoryPoint[];
  /** This period's ledger events (after the previous month-end), in date order. */
  transactions: TransactionLine[];
  /**
   * Where the history came from, for the method text: "the firm's history database" with the
   * month-ends it holds, or "this report alone" when no database is in use.
   */
  source: string;
}

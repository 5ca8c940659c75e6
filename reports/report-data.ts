/**
 * The data model every report writer renders. The report job (reports/*) builds a `ReportData`
 * (one client portfolio) or a `DashboardData` (the market dashboard) and hands it to the writers
 * in reports/writers/. Writers never call the service: everything they print is in here.
 *
 * Units, everywhere in this file:
 * - money: plain numbers in `cover.currency` (no rounding applied; writers format);
 * - `*_percent` fields: percent units (12.5 means 12.5 %), as on the wire;
 * - `confidence`: a ratio 0..1; `service_score`: an integer 0..100;
 * - dates: `YYYY-MM-DD`; timestamps: ISO 8601 UTC strings.
 * - `null` means "not known / not applicable" and is printed as an empty cell or a dash, never 0.
 */
import type { SegmentId } from '../src/wire';

/** Version of the JSON report format (reports/schema/portfolio-report.schema.json). Bump on breaking change. */
export const REPORT_SCHEMA_VERSION = '1.1.0';
/** Version of the JSON dashboard format (reports/schema/market-dashboard.schema.json). */
export const DASHBOARD_SCHEMA_VERSION = '1.0.0';

import type { ReportFormat } from '../src/report-formats';
export { REPORT_FORMATS, type ReportFormat } from '../src/report-formats';

/** A part of the report that may be left out (tier without the scope, call failed, …). */
export type Section<T> =
  | {
      included: true;
      data: T;
      /** Optional remark printed under the section (e.g. "3 holdings could not be projected"). */
      note?: string;
    }
  | {
      included: false;
      /**
       * Why it is missing, printed in its place. In a ReportData this is written for the client
       * ("Exit analysis is not part of this report."); the technical reason (tier, scope, HTTP
       * status) is in ReportData.analyst_notes, never in the client PDF.
       */
      note: string;
    };

// ---------------------------------------------------------------------------------------------
// Portfolio report
// ---------------------------------------------------------------------------------------------

export interface ReportCover {
  /** Client (or household) the report is addressed to; may equal the portfolio name. */
  client_name: string;
  /** Portfolio name; output file names are a safe slug of it. */
  portfolio_name: string;
  /** Service portfolio id (`port_…`) when the portfolio exists on the service, else null. */
  portfolio_id: string | null;
  /** Valuation date the figures are as of, YYYY-MM-DD. */
  as_of: string;
  /** Base (reporting) currency, ISO 4217 code (USD, EUR, GBP). Every money amount is in it. */
  currency: string;
  /** Unique id of this report run, e.g. "rpt_2026-10-31_acme"; printed on every page and sheet. */
  report_id: string;
  /** When this report was produced, ISO 8601 UTC timestamp. */
  generated_at: string;
  /** True when the figures come from the sandbox (test data): every format marks it visibly. */
  sandbox: boolean;
  /** Who prepared it (firm / adviser), optional; printed on the cover. */
  prepared_by?: string;
  /**
   * 'client': one portfolio's report, addressed to its client. 'internal': the firm's own
   * consolidated report over several clients' portfolios (its own cover and footer, a Portfolio
   * column in every table), never to be sent to a client.
   */
  audience: 'client' | 'internal';
  /** The portfolios an internal consolidated report covers, in input order ([] for a client report). */
  portfolios: string[];
}

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
  /** Annualised return since purchase (cost-weighted holding period); null when it cannot be computed. */
  annualised_return_percent: number | null;
  /**
   * Money-weighted return: the annualised internal rate of return of the purchases (at their
   * dates, in the reporting currency) and today's value (XIRR convention, 365-day years).
   * Null where it cannot be computed (e.g. every purchase on the as-of date).
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
}

export interface AllocationRow {
  /** Segment id (open: a segment the service adds later still renders). */
  segment: SegmentId | (string & {});
  /** Display name, e.g. "Luxury Watches". */
  segment_name: string;
  /** Holdings in the segment. */
  asset_count: number;
  /** Sum of mid values in the segment. */
  value: number;
  /** value / summary.current_value × 100. */
  percentage: number;
}

export interface PositionRef {
  /** Input row of the holding (see Holding.row). */
  row: number;
  asset_id: string;
  description: string;
  /** Mid value. */
  value: number;
  /** value / summary.current_value × 100. */
  weight_percent: number;
}

export interface ConcentrationFlag {
  /** What is concentrated. */
  kind: 'single_position' | 'top10' | 'segment';
  /** Sentence for the reader, e.g. "One position is 31.2 % of the portfolio (limit 20 %)". */
  message: string;
}

export interface Concentration {
  /** The largest position by mid value; null for an empty portfolio. */
  largest_position: PositionRef | null;
  /** Share of the ten largest positions in the value, percent. */
  top10_share_percent: number;
  /** Thresholds exceeded (empty when none). */
  flags: ConcentrationFlag[];
}

export interface Holding {
  /** Row number of the holding in the input file, as the user sees it (errors use the same numbering). */
  row: number;
  /** Service asset id, SVC-…. */
  asset_id: string;
  /** Human description, e.g. "Rolex Submariner 126610LN (2021)". Free text from the input: writers neutralise it. */
  description: string;
  /** Segment id. */
  segment: SegmentId | (string & {});
  /** Number of units held; 1 for single items. Wine counts cases of 12 × 75 cl (see quantity_unit). */
  quantity: number;
  /** What one unit of quantity is, for a reader: "case of 12 × 75 cl", "bottle", "item". */
  quantity_unit: string;
  /** Portfolio the holding belongs to (consolidated reports show it as a column). */
  portfolio: string;
  /** ISO 4217 code the holding was bought in. */
  purchase_currency: string;
  /** Total paid for the holding (all units), in purchase_currency. */
  purchase_price_original: number;
  /** Units of the reporting currency per unit of purchase_currency on the purchase date (1 when they are the same). */
  fx_rate_purchase: number;
  /** The same rate on the as-of date; values are converted at it. */
  fx_rate_as_of: number;
  /** Total paid for the holding (all units), in the reporting currency (at fx_rate_purchase). */
  purchase_price: number;
  /** Purchase date, YYYY-MM-DD. */
  purchase_date: string;
  /** Low estimate of the holding's value (all units). */
  value_low: number;
  /** Mid estimate (all units): the holding's current value. */
  current_value: number;
  /** High estimate (all units). */
  value_high: number;
  /** Valuation confidence, 0..1. */
  confidence: number;
  /** Investment score 0..100. */
  service_score: number;
  /** Trend direction: positive, neutral, negative (open). */
  momentum: string;
  /** (current_value − purchase_price) / purchase_price × 100; null when purchase_price is 0. */
  return_percent: number | null;
  /** Annualised IRR of this holding's purchase and value (its compound annual growth rate); null when not computable. */
  money_weighted_return_percent: number | null;
  /** Value after the primary exit channel's commission, where the exit analysis covers the holding; else null. */
  net_realisable_value: number | null;
  /** current_value / summary.current_value × 100. */
  weight_percent: number;
  /** Change of current_value against the previous report; null when the holding was not in it. */
  month_on_month_change: number | null;
  /** That change as percent of the previous value; null when not available. */
  month_on_month_percent: number | null;
  /** The service's market validation flag for this valuation. */
  market_validated: boolean;
}

export const PERIOD_IDS = ['1_month', '3_months', '6_months', '1_year', 'ytd'] as const;
export type PeriodId = (typeof PERIOD_IDS)[number];
export const BENCHMARK_IDS = ['luxury_index', 'gold', 'equity_index'] as const;
export type BenchmarkId = (typeof BENCHMARK_IDS)[number];

export interface PeriodReturn {
  period: PeriodId;
  /** Display label, e.g. "1 month", "Year to date". */
  label: string;
  /** Portfolio return over the period, percent. */
  return_percent: number;
  /** Portfolio minus benchmark over the period, percentage points; null when the service gave none. */
  vs_benchmark_percent: number | null;
}

export interface BenchmarkReturn {
  id: BenchmarkId;
  /** Display name: "Luxury index", "Gold", "Equities". */
  name: string;
  /** Benchmark return over one year, percent; null when unavailable. */
  one_year_return_percent: number | null;
}

export interface PerformanceComparison {
  /** Portfolio returns per period (service performance endpoint). */
  periods: PeriodReturn[];
  /** Benchmark one-year returns: luxury index, gold, equities, in that order. */
  benchmarks: BenchmarkReturn[];
  /** Portfolio one-year return, percent, shown next to the benchmarks (periods['1_year']). */
  portfolio_one_year_return_percent: number | null;
  /** The benchmark vs_benchmark_percent is measured against, by name (e.g. "Luxury index"). */
  benchmark_name: string;
}

/** What a projection row and an exit row say of the asset they are about. */
export interface AnalysedAsset {
  row: number;
  asset_id: string;
  description: string;
  /** Portfolio(s) holding it: one name, or several joined by ", " when a consolidated row groups one asset held in several. */
  portfolio: string;
  /** Holdings the row stands for (more than 1 when one asset held several times is grouped). */
  holding_count: number;
  /** Value the projection or exit analysis starts from. */
  current_value: number;
  confidence: number;
  market_validated: boolean;
}

export interface ProjectionRow extends AnalysedAsset {
  /** Probability-weighted expected ROI per horizon, percent; null when that horizon was not returned. */
  expected_roi_12m_percent: number | null;
  expected_roi_24m_percent: number | null;
  expected_roi_36m_percent: number | null;
  /** Central-scenario value at 36 months (or the longest horizon returned); null when absent. */
  central_value_36m: number | null;
  /** Conservative / optimistic values at the same horizon, for a range. */
  conservative_value_36m: number | null;
  optimistic_value_36m: number | null;
}

export interface ExitRow extends AnalysedAsset {
  /** Timing: signal / optimal_window / recommendation as the service words them (open enums). */
  signal: string;
  optimal_window: string;
  recommendation: string;
  primary_channel: string;
  primary_commission_percent: number;
  primary_estimated_net: number;
  /** "30-60" days. */
  primary_timeline_days: string;
  secondary_channel: string;
  secondary_estimated_net: number;
  /** Hold-12-months alternative: projected ROI, percent. */
  hold_12m_roi_percent: number;
}

export interface ReportError {
  /** Portfolio the problem belongs to (consolidated reports show it as a column). */
  portfolio: string;
  /** Input row the problem is on (same numbering as Holding.row); null for a problem not tied to a row. */
  row: number | null;
  /** Input column / field concerned, e.g. "purchase_date"; "" when not tied to a field. */
  field: string;
  /** Clear sentence: what is wrong and what is allowed. No stack traces, no secrets. */
  message: string;
}

export interface ReportData {
  cover: ReportCover;
  summary: ReportSummary;
  /** One row per segment held, largest value first. */
  allocation: AllocationRow[];
  concentration: Concentration;
  /**
   * The holdings, in input order. Any re-iterable works (an array, or an object whose
   * [Symbol.iterator] regenerates the rows): each writer iterates it once, front to back,
   * so a lazily produced iterable keeps million-row exports in bounded memory.
   */
  holdings: Iterable<Holding>;
  /** Portfolio period returns and benchmark one-year returns; omitted when the scope is missing. */
  benchmarks: Section<PerformanceComparison>;
  /** Projections for the largest holdings; omitted with a note when the tier/scope lacks them. */
  projections: Section<ProjectionRow[]>;
  /** Exit analysis for the largest holdings; omitted with a note when the tier/scope lacks it. */
  exit_analysis: Section<ExitRow[]>;
  /** Rows that could not be valued or were rejected, and job-level problems. */
  errors: ReportError[];
  /**
   * For the analyst, not the client: technical detail behind omitted sections and notes (tier,
   * scope, HTTP status, service messages), returns above 1,000 %, and the like. Written to
   * stderr, the xlsx Errors/Notes sheet and the JSON; never printed in the PDF.
   */
  analyst_notes: string[];
  /** How the figures were obtained (one paragraph each). */
  method_notes: string[];
  /** Disclaimer printed at the end of every format; see composeDisclaimer(). */
  disclaimer: string;
}

/**
 * The standard disclaimer: values are estimates, and it says so plainly when some valuations
 * are not market validated. The job may append firm-specific text.
 */
export function composeDisclaimer(summary: Pick<ReportSummary, 'asset_count' | 'market_validated_count'>, sandbox: boolean): string {
  const parts = [
    'Values in this report are model estimates (low, mid and high), not offers, appraisals or guarantees of a sale price. ' +
      'Past performance and projections do not guarantee future results.',
  ];
  const notValidated = summary.asset_count - summary.market_validated_count;
  if (notValidated > 0) {
    parts.push(
      `${notValidated} of ${summary.asset_count} valuation${summary.asset_count === 1 ? '' : 's'} ` +
        `${notValidated === 1 ? 'is' : 'are'} not market validated (market_validated is false): ` +
        'treat those values with extra caution.',
    );
  } else if (summary.asset_count > 0) {
    parts.push('All valuations in this report are market validated.');
  }
  if (sandbox) parts.push('SANDBOX DATA: produced against the test sandbox, not the live service.');
  return parts.join(' ');
}

// ---------------------------------------------------------------------------------------------
// Market dashboard
// ---------------------------------------------------------------------------------------------

export interface DashboardSegment {
  segment: SegmentId | (string & {});
  segment_name: string;
  /** From GET /signals: momentum, volume level, sentiment, signal strength 0..1. */
  momentum: string;
  volume: string;
  sentiment: string;
  signal_strength: number;
  /** From GET /signals/{segment} when fetched, else null: price trend and changes in percent. */
  price_trend: string | null;
  change_7d_percent: number | null;
  change_30d_percent: number | null;
  change_90d_percent: number | null;
  transaction_count_30d: number | null;
  sentiment_score: number | null;
}

export interface DashboardMover {
  segment: SegmentId | (string & {});
  brand: string;
  model: string;
  /** 30-day price change, percent. */
  change_30d_percent: number;
}

export interface DashboardAlert {
  id: string;
  type: string;
  severity: string;
  segment: SegmentId | (string & {});
  title: string;
  message: string;
  created_at: string;
  expires_at: string;
}

export interface DashboardData {
  /** Unique id of this dashboard run. */
  report_id: string;
  /** Market date, YYYY-MM-DD. */
  as_of: string;
  generated_at: string;
  sandbox: boolean;
  /** One row per segment, in SEGMENTS order. */
  segments: DashboardSegment[];
  /** Largest 30-day movers across segments, largest absolute change first. */
  top_movers: DashboardMover[];
  /** Alerts active at generated_at. */
  alerts: DashboardAlert[];
  /** The overview's market_validated flag. */
  market_validated: boolean;
  /** Remarks (e.g. "segment detail omitted: rate limit reached"). */
  notes: string[];
  disclaimer: string;
}

// ---------------------------------------------------------------------------------------------
// Writer signatures (implemented in reports/writers/)
// ---------------------------------------------------------------------------------------------

/** Writes one format to exactly `filePath` (atomically: temp file + rename). */
export type ReportWriter = (data: ReportData, filePath: string) => Promise<void>;
export type DashboardWriter = (data: DashboardData, filePath: string) => Promise<void>;

export interface WrittenFile {
  format: ReportFormat;
  /** Absolute path of the written file, always inside the out dir. */
  path: string;
  bytes: number;
}

/**
 * reports/writers/index.ts exports:
 *   writeXlsx, writeCsv, writeJson, writePdf: ReportWriter
 *   writeDashboardXlsx, writeDashboardCsv, writeDashboardJson, writeDashboardPdf: DashboardWriter
 *   writeReport(data, outDir, formats): Promise<WrittenFile[]>    file names: <slug>-<as_of>.<ext>
 *   writeDashboard(data, outDir, formats): Promise<WrittenFile[]> file names: market-dashboard-<as_of>.<ext>
 */
export type WriteReport = (data: ReportData, outDir: string, formats: readonly ReportFormat[]) => Promise<WrittenFile[]>;
export type WriteDashboard = (data: DashboardData, outDir: string, formats: readonly ReportFormat[]) => Promise<WrittenFile[]>;

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
 *
 * The groups of types live in their own files and are re-exported here, so importers use this one:
 * report-summary.ts, report-allocation.ts, report-holding.ts, report-performance.ts,
 * report-analysis.ts (projection and exit rows), report-disclaimer.ts, dashboard-data.ts.
 */
import type { AllocationRow, Concentration } from './report-allocation';
import type { ExitRow, ProjectionRow } from './report-analysis';
import type { Holding } from './report-holding';
import type { PerformanceComparison } from './report-performance';
import type { ReportSummary } from './report-summary';
import type { ReportHistory } from './report-history';
import type { DashboardData } from './dashboard-data';
import type { CsvHeaders, ReportFormat } from '../src/report-formats';
import type { Brand } from '../src/brand';
import type { Language } from '../src/i18n/languages';
import type { InsuranceReview } from '../src/insurance/types';
export type { AllocationRow, Concentration, ConcentrationFlag, PositionRef } from './report-allocation';
export type { AnalysedAsset, ExitRow, ProjectionRow } from './report-analysis';
export type { Holding } from './report-holding';
export { BENCHMARK_IDS, PERIOD_IDS, type BenchmarkId, type BenchmarkReturn, type PerformanceComparison, type PeriodId, type PeriodReturn } from './report-performance';
export type { Coverage, MonthOnMonth, ReportSummary, ReturnsSince, ReturnsUnavailable } from './report-summary';
export { PERIOD_KEYS, type PeriodKey, type PeriodFigures, type PortfolioPerformance, type RealisedGain, type RealisedGainLine, type ReportHistory, type TransactionLine, type ValueHistoryPoint } from './report-history';
export { composeDisclaimer } from './report-disclaimer';
export type { DashboardAlert, DashboardData, DashboardMover, DashboardSegment } from './dashboard-data';

/** Version of the JSON report format (reports/schema/portfolio-report.schema.json). Bump on breaking change. */
export const REPORT_SCHEMA_VERSION = '1.6.0';
/** Version of the JSON dashboard format (reports/schema/market-dashboard.schema.json). */
export const DASHBOARD_SCHEMA_VERSION = '1.1.0';

export { CSV_HEADERS, DEFAULT_CSV_HEADERS, DEFAULT_FORMATS, REPORT_FORMATS, type CsvHeaders, type ReportFormat } from '../src/report-formats';


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
      /** Left out because the service failed (not because the tier lacks it): the run ends with exit 3 and says so. */
      failed?: true;
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
  /**
   * True when amounts were converted with an illustrative rates file (one that says it is not real
   * rates, like the demo's): the PDF and xlsx mark every page and sheet, as for sandbox data.
   */
  illustrative_rates: boolean;
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
  /**
   * The portfolio's own performance over the standard periods, realised and unrealised gains, its
   * value at each recorded month-end and this period's transactions, from the ledger and the
   * history database (report-history.ts). Absent from the consolidated report.
   */
  history?: ReportHistory;
  /**
   * The insurance review (issue 37): each valued holding's cover against its replacement value.
   * Absent when the portfolio's files say nothing of cover, and from the consolidated report.
   */
  insurance?: InsuranceReview;
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
  /**
   * The firm's brand (issue 28) the client documents (PDF, xlsx) are drawn in; absent: the
   * house look. Never written into the JSON or CSV (their documents are built field by field).
   */
  brand?: Brand;
  /**
   * The language (BCP 47) of the client documents (issue 36): the portfolio's `language` column,
   * else the run's --language; the consolidated report's is the run's. Absent: en.
   */
  language?: Language;
  /** The CSV's header row (--csv-headers, `csv_headers` in the config); absent: DEFAULT_CSV_HEADERS. Never written into the JSON. */
  csv_headers?: CsvHeaders;
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

import type { LedgerEntry } from '../ledger/types';
import type { InsuranceStatus } from '../insurance/types';

/** One run of the tool (a month-end run, a queue worker's job, a history import). */
export interface RunInfo {
  /** When the run started; now if absent. */
  startedAt?: Date;
  /** The tool's version (package.json). */
  toolVersion: string;
  /** The service's base URL. Recorded without credentials (user, password, query string). */
  serviceUrl: string;
  /** True when the run valued against the sandbox rather than the service. */
  sandbox: boolean;
  /** The command line, e.g. `svc-report run a.csv --as-of 2025-03-31`. */
  command: string;
}

/** One holding's valuation at a month-end, as the service gave it. Money in `currency`. */
export interface HoldingValuation {
  /** The holding's row in its input (1-based), for ordering and errors. */
  row: number;
  assetId?: string;
  description?: string;
  quantity?: number;
  valueMid: number;
  valueLow?: number;
  valueHigh?: number;
  currency: string;
  /** The service's confidence (0..1 or its own scale), as given. */
  confidence?: number;
  marketValidated?: boolean;
  /** The service's id for this valuation. */
  valuationId?: string;
  /** Issue 37: the cover in `currency` (absent: not insured, or no review) and the review's status (absent: no review that month). */
  insuredValue?: number;
  insuranceStatus?: InsuranceStatus;
}

export interface MonthEndInput {
  /** A run recorded with recordRun (its id), or the run to record with this month-end. */
  run: number | RunInfo;
  portfolio: string;
  /** YYYY-MM-DD. */
  asOf: string;
  /** The reporting currency of `value` and `netFlows` (ISO 4217). */
  currency: string;
  /** The portfolio's value at the month-end, in `currency`. */
  value: number;
  /** Net flows into the portfolio over the month (in positive, out negative), in `currency`. */
  netFlows: number;
  holdings: readonly HoldingValuation[];
  /** The ledger the month-end was computed from (entries up to as_of). */
  ledger: readonly LedgerEntry[];
}

export interface MonthEndSummary {
  asOf: string;
  value: number;
  netFlows: number;
  currency: string;
}

/** A month-end as `history show` lists it: the summary, the run that recorded it and its holdings count. */
export interface MonthEndRecord extends MonthEndSummary {
  runId: number;
  holdings: number;
}

export interface PortfolioSpan {
  portfolio: string;
  /** The first and last month-end recorded (YYYY-MM-DD). */
  first: string;
  last: string;
  monthEnds: number;
}

/** An asset's value at one month-end, summed over the portfolios (in one reporting currency) holding it. */
export interface AssetMonthEnd {
  asOf: string;
  value: number;
  currency: string;
  /** How many portfolios held it at that month-end. */
  portfolios: number;
}

export interface RecordedMonthEnd {
  id: number;
  runId: number;
  portfolioId: number;
  /** True when the month was already recorded and this replaced it. */
  replaced: boolean;
}

export interface RecordedRun extends Required<Omit<RunInfo, 'startedAt'>> {
  id: number;
  startedAt: string;
  finishedAt: string | null;
}

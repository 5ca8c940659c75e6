import type { InsuranceStatus } from '../insurance/types';
import type { ColumnType, Generated } from 'kysely';

/**
 * The tables as Kysely sees them. numeric columns come back as strings on both dialects (exact
 * decimal text); the repository turns them into numbers at its boundary (numeric.ts). Dates are
 * read back as text (`as_of::text`) so both dialects give YYYY-MM-DD whatever the time zone.
 */
type Numeric = ColumnType<string, number | string, number | string>;
type NullableNumeric = ColumnType<string | null, number | string | null | undefined, number | string | null>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type DateColumn = ColumnType<Date | string, string, string>;

export interface RunsTable {
  id: Generated<number>;
  started_at: Timestamp;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  tool_version: string;
  service_url: string;
  sandbox: boolean;
  command: string;
}

export interface PortfoliosTable {
  id: Generated<number>;
  name: string;
}

export interface MonthEndsTable {
  id: Generated<number>;
  portfolio_id: number;
  as_of: DateColumn;
  run_id: number;
  currency: string;
  value: Numeric;
  net_flows: Numeric;
  recorded_at: Timestamp;
}

export interface HoldingValuationsTable {
  id: Generated<string>;
  month_end_id: number;
  row: number;
  asset_id: string | null;
  description: string | null;
  quantity: NullableNumeric;
  value_mid: Numeric;
  value_low: NullableNumeric;
  value_high: NullableNumeric;
  currency: string;
  confidence: NullableNumeric;
  market_validated: boolean | null;
  valuation_id: string | null;
  /** Issue 37 (migration 0004): null when the month-end had no insurance review, or the item no insured value. */
  insured_value: NullableNumeric;
  insurance_status: InsuranceStatus | null;
}

export interface LedgerEntriesTable {
  id: Generated<string>;
  month_end_id: number;
  portfolio_id: number;
  date: DateColumn;
  type: string;
  asset_id: string | null;
  quantity: NullableNumeric;
  amount: Numeric;
  currency: string;
  notes: string | null;
  source_file: string;
  source_sheet: string | null;
  source_row: number;  /** Migration 0003 (issue 34): the row's lot name, its unit (case or bottle) and its wine stock (the case's id, bottles one unit counts). */
  lot: string | null;
  unit: 'case' | 'bottle' | null;
  stock_id: string | null;
  bottles_per_unit: number | null;
}

export interface ApprovalsTable {
  id: Generated<number>;
  portfolio: string;
  report: string;
  as_of: DateColumn;
  decision: 'approved' | 'rejected';
  decided_by: string;
  decided_at: Timestamp;
  reason: string | null;
  /** [{name, sha256}] as JSON. */
  files: ColumnType<unknown, string, string>;
  certificate_sha256: string | null;
  recorded_at: Timestamp;
}

export interface Schema {
  runs: RunsTable;
  portfolios: PortfoliosTable;
  month_ends: MonthEndsTable;
  holding_valuations: HoldingValuationsTable;
  ledger_entries: LedgerEntriesTable;
  approvals: ApprovalsTable;
}

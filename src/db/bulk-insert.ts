import { sql, type Transaction } from 'kysely';
import type { Schema } from './schema';

/** A child table's columns and their SQL types, as jsonb_to_recordset needs them. */
export const HOLDING_COLUMNS = {
  month_end_id: 'integer',
  row: 'integer',
  asset_id: 'text',
  description: 'text',
  quantity: 'numeric',
  value_mid: 'numeric',
  value_low: 'numeric',
  value_high: 'numeric',
  currency: 'text',
  confidence: 'numeric',
  market_validated: 'boolean',
  valuation_id: 'text',
  insured_value: 'numeric',
  insurance_status: 'text',
} as const;

export const LEDGER_COLUMNS = {
  month_end_id: 'integer',
  portfolio_id: 'integer',
  date: 'date',
  type: 'text',
  asset_id: 'text',
  quantity: 'numeric',
  amount: 'numeric',
  currency: 'text',
  notes: 'text',
  source_file: 'text',
  source_sheet: 'text',
  source_row: 'integer',
  lot: 'text',
  unit: 'text',
  stock_id: 'text',
  bottles_per_unit: 'integer',
} as const;

/**
 * Inserts many rows as one JSON parameter unpacked by `jsonb_to_recordset` (plain Postgres, the
 * same on both dialects): one parameter instead of one per cell, which halves the time PGlite
 * spends on a month-end's 100 rows (bench/db-record.ts) and has no 65,535-parameter ceiling.
 * Numerics travel as their decimal text and are cast by the column's type: exact.
 */
export async function insertJsonRows(
  tx: Transaction<Schema>,
  table: 'holding_valuations' | 'ledger_entries',
  columns: Readonly<Record<string, string>>,
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  if (rows.length === 0) return;
  const names = Object.keys(columns);
  const list = sql.join(names.map((n) => sql.ref(n)));
  const shape = sql.join(names.map((n) => sql`${sql.ref(n)} ${sql.raw(columns[n]!)}`));
  await sql`insert into ${sql.table(table)} (${list}) select ${list} from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${shape})`.execute(tx);
}

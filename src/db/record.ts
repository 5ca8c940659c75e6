import { sql, type Kysely, type Transaction } from 'kysely';
import type { LedgerEntry } from '../ledger/types';
import { HOLDING_COLUMNS, insertJsonRows, LEDGER_COLUMNS } from './bulk-insert';
import { serviceUrlWithoutCredentials } from './errors';
import { toNumeric, toOptionalNumeric } from './numeric';
import type { Database } from './open';
import type { Schema } from './schema';
import type { MonthEndInput, RecordedMonthEnd, RunInfo } from './types';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Records a run (its service URL without credentials); its id for recordMonthEnd and finishRun. */
export async function recordRun(db: Database, run: RunInfo): Promise<number> {
  return insertRun(db.kysely, run);
}

/** Marks a run finished (now, or `at`). */
export async function finishRun(db: Database, runId: number, at: Date = new Date()): Promise<void> {
  await db.kysely.updateTable('runs').set({ finished_at: at }).where('id', '=', runId).execute();
}

async function insertRun(db: Kysely<Schema>, run: RunInfo): Promise<number> {
  const row = await db
    .insertInto('runs')
    .values({
      started_at: run.startedAt ?? new Date(),
      tool_version: run.toolVersion,
      service_url: serviceUrlWithoutCredentials(run.serviceUrl),
      sandbox: run.sandbox,
      command: run.command,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Records one portfolio's month-end in one transaction: the month_ends row, each holding's
 * valuation and the ledger it was computed from. Re-recording a (portfolio, as_of) replaces it:
 * the row is upserted (INSERT … ON CONFLICT DO UPDATE, which keeps its id and locks it until
 * commit) and its holdings and ledger deleted and inserted anew in the same transaction. Two
 * writers of the same month on a server therefore run one after the other on that row lock, and
 * the last to commit is the record: never two, never a mix of both.
 */
export async function recordMonthEnd(db: Database, input: MonthEndInput): Promise<RecordedMonthEnd> {
  if (!DATE.test(input.asOf)) throw new Error(`asOf must be a date YYYY-MM-DD, got ${JSON.stringify(input.asOf)}`);
  if (!input.portfolio) throw new Error('portfolio must be named');
  const value = toNumeric(input.value, 'value');
  const netFlows = toNumeric(input.netFlows, 'netFlows');
  const holdings = input.holdings.map((h, i) => ({
    row: h.row,
    asset_id: h.assetId ?? null,
    description: h.description ?? null,
    quantity: toOptionalNumeric(h.quantity, `holdings[${i}].quantity`),
    value_mid: toNumeric(h.valueMid, `holdings[${i}].valueMid`),
    value_low: toOptionalNumeric(h.valueLow, `holdings[${i}].valueLow`),
    value_high: toOptionalNumeric(h.valueHigh, `holdings[${i}].valueHigh`),
    currency: h.currency,
    confidence: toOptionalNumeric(h.confidence, `holdings[${i}].confidence`),
    market_validated: h.marketValidated ?? null,
    valuation_id: h.valuationId ?? null,
    insured_value: toOptionalNumeric(h.insuredValue, `holdings[${i}].insuredValue`),
    insurance_status: h.insuranceStatus ?? null,
  }));
  const ledger = input.ledger.map((e, i) => ledgerRow(e, i));

  return db.kysely.transaction().execute(async (tx) => {
    const runId = typeof input.run === 'number' ? input.run : await insertRun(tx, input.run);
    const portfolioId = await portfolioIdFor(tx, input.portfolio);
    const monthEnd = await tx
      .insertInto('month_ends')
      .values({ portfolio_id: portfolioId, as_of: input.asOf, run_id: runId, currency: input.currency, value, net_flows: netFlows })
      .onConflict((oc) =>
        oc.columns(['portfolio_id', 'as_of']).doUpdateSet({
          run_id: (eb) => eb.ref('excluded.run_id'),
          currency: (eb) => eb.ref('excluded.currency'),
          value: (eb) => eb.ref('excluded.value'),
          net_flows: (eb) => eb.ref('excluded.net_flows'),
          recorded_at: sql`now()`,
        }),
      )
      // xmax is 0 for a row this statement inserted, the locking transaction's id for one it updated.
      .returning(['id', sql<boolean>`(xmax <> 0)`.as('replaced')])
      .executeTakeFirstOrThrow();
    const monthEndId = monthEnd.id;
    await tx.deleteFrom('holding_valuations').where('month_end_id', '=', monthEndId).execute();
    await tx.deleteFrom('ledger_entries').where('month_end_id', '=', monthEndId).execute();
    await insertJsonRows(tx, 'holding_valuations', HOLDING_COLUMNS, holdings.map((h) => ({ ...h, month_end_id: monthEndId })));
    await insertJsonRows(tx, 'ledger_entries', LEDGER_COLUMNS, ledger.map((e) => ({ ...e, month_end_id: monthEndId, portfolio_id: portfolioId })));
    return { id: monthEndId, runId, portfolioId, replaced: Boolean(monthEnd.replaced) };
  });
}

/** The portfolio's id, inserting it if new (ON CONFLICT so two writers of a new name agree on one row). */
async function portfolioIdFor(tx: Transaction<Schema>, name: string): Promise<number> {
  const row = await tx
    .insertInto('portfolios')
    .values({ name })
    .onConflict((oc) => oc.column('name').doUpdateSet({ name: (eb) => eb.ref('excluded.name') }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A stock's bottles per unit is a whole number above 0 (12 a case, 1 a bottle): the column is an integer. */
function bottlesPerUnit(n: number, i: number): number {
  if (!Number.isInteger(n) || n <= 0) throw new Error(`ledger[${i}].stock.bottlesPerUnit must be a whole number above 0, got ${n}`);
  return n;
}

function ledgerRow(e: LedgerEntry, i: number) {
  if (!DATE.test(e.date)) throw new Error(`ledger[${i}].date must be YYYY-MM-DD, got ${JSON.stringify(e.date)}`);
  return {
    date: e.date,
    type: e.type,
    asset_id: e.assetId ?? null,
    quantity: toOptionalNumeric(e.quantity, `ledger[${i}].quantity`),
    amount: toNumeric(e.amount, `ledger[${i}].amount`),
    currency: e.currency,
    notes: e.notes ?? null,
    source_file: e.source.file,
    source_sheet: e.source.sheet ?? null,
    source_row: e.source.row,
    lot: e.lot ?? null,
    unit: e.unit ?? null,
    stock_id: e.stock?.id ?? null,
    bottles_per_unit: e.stock ? bottlesPerUnit(e.stock.bottlesPerUnit, i) : null,
  };
}

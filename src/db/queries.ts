import { sql } from 'kysely';
import type { LedgerEntry, TransactionType } from '../ledger/types';
import { fromNumeric } from './numeric';
import type { Database } from './open';
import type { AssetMonthEnd, HoldingValuation, MonthEndRecord, MonthEndSummary, PortfolioSpan, RecordedRun } from './types';

/** Dates as YYYY-MM-DD text on both dialects (pg would give a local-midnight Date, PGlite a UTC one). */
const asText = (column: string) => sql<string>`${sql.ref(column)}::text`;

/** The portfolios recorded, by name. */
export async function portfolios(db: Database): Promise<string[]> {
  const rows = await db.kysely.selectFrom('portfolios').select('name').orderBy('name').execute();
  return rows.map((r) => r.name);
}

/** A portfolio's recorded month-ends, oldest first, `from`/`to` (YYYY-MM-DD) inclusive; [] for an unknown portfolio. */
export async function monthEnds(db: Database, portfolio: string, range: { from?: string; to?: string } = {}): Promise<MonthEndSummary[]> {
  let q = db.kysely
    .selectFrom('month_ends as m')
    .innerJoin('portfolios as p', 'p.id', 'm.portfolio_id')
    .select([asText('m.as_of').as('as_of'), 'm.value', 'm.net_flows', 'm.currency'])
    .where('p.name', '=', portfolio);
  if (range.from !== undefined) q = q.where('m.as_of', '>=', range.from);
  if (range.to !== undefined) q = q.where('m.as_of', '<=', range.to);
  const rows = await q.orderBy('m.as_of').execute();
  return rows.map((r) => ({ asOf: r.as_of, value: fromNumeric(r.value), netFlows: fromNumeric(r.net_flows), currency: r.currency }));
}

/** The holdings' valuations recorded for a portfolio's month-end, by row; [] when not recorded. */
export async function monthEndHoldings(db: Database, portfolio: string, asOf: string): Promise<HoldingValuation[]> {
  const rows = await db.kysely
    .selectFrom('holding_valuations as h')
    .innerJoin('month_ends as m', 'm.id', 'h.month_end_id')
    .innerJoin('portfolios as p', 'p.id', 'm.portfolio_id')
    .selectAll('h')
    .where('p.name', '=', portfolio)
    .where('m.as_of', '=', asOf)
    .orderBy('h.row')
    .orderBy('h.id')
    .execute();
  return rows.map((r) => {
    const h: HoldingValuation = { row: r.row, valueMid: fromNumeric(r.value_mid), currency: r.currency };
    if (r.asset_id !== null) h.assetId = r.asset_id;
    if (r.description !== null) h.description = r.description;
    if (r.quantity !== null) h.quantity = fromNumeric(r.quantity);
    if (r.value_low !== null) h.valueLow = fromNumeric(r.value_low);
    if (r.value_high !== null) h.valueHigh = fromNumeric(r.value_high);
    if (r.confidence !== null) h.confidence = fromNumeric(r.confidence);
    if (r.market_validated !== null) h.marketValidated = r.market_validated;
    if (r.valuation_id !== null) h.valuationId = r.valuation_id;
    if (r.insured_value !== null) h.insuredValue = fromNumeric(r.insured_value);
    if (r.insurance_status !== null) h.insuranceStatus = r.insurance_status;
    return h;
  });
}

/**
 * The ledger recorded with a portfolio's month-end at `asOf`, or with its latest month-end when
 * `asOf` is absent: each month-end keeps the ledger it was computed from (a ledger corrected
 * later does not rewrite earlier months). By date, then source file and row. [] when none.
 */
export async function ledger(db: Database, portfolio: string, asOf?: string): Promise<LedgerEntry[]> {
  let monthEnd = db.kysely
    .selectFrom('month_ends as m')
    .innerJoin('portfolios as p', 'p.id', 'm.portfolio_id')
    .select('m.id')
    .where('p.name', '=', portfolio);
  monthEnd = asOf !== undefined ? monthEnd.where('m.as_of', '=', asOf) : monthEnd.orderBy('m.as_of', 'desc').limit(1);
  const rows = await db.kysely
    .selectFrom('ledger_entries as l')
    .innerJoin('portfolios as p', 'p.id', 'l.portfolio_id')
    .select([
      'p.name',
      asText('l.date').as('date'),
      'l.type',
      'l.asset_id',
      'l.quantity',
      'l.amount',
      'l.currency',
      'l.notes',
      'l.source_file',
      'l.source_sheet',
      'l.source_row',
      'l.lot',
      'l.unit',
      'l.stock_id',
      'l.bottles_per_unit',
    ])
    .where('l.month_end_id', '=', (eb) => eb.selectFrom(monthEnd.as('me')).select('me.id'))
    .orderBy('l.date')
    .orderBy('l.source_file')
    .orderBy('l.source_row')
    .orderBy('l.id')
    .execute();
  return rows.map((r) => {
    const e: LedgerEntry = {
      portfolio: r.name,
      date: r.date,
      type: r.type as TransactionType,
      amount: fromNumeric(r.amount),
      currency: r.currency,
      source: { file: r.source_file, row: r.source_row },
    };
    if (r.source_sheet !== null) e.source.sheet = r.source_sheet;
    if (r.asset_id !== null) e.assetId = r.asset_id;
    if (r.quantity !== null) e.quantity = fromNumeric(r.quantity);
    if (r.unit !== null) e.unit = r.unit;
    if (r.stock_id !== null && r.bottles_per_unit !== null) e.stock = { id: r.stock_id, bottlesPerUnit: Number(r.bottles_per_unit) };
    if (r.lot !== null) e.lot = r.lot;
    if (r.notes !== null) e.notes = r.notes;
    return e;
  });
}

/** A recorded run, or undefined. */
export async function run(db: Database, id: number): Promise<RecordedRun | undefined> {
  const r = await db.kysely.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirst();
  if (!r) return undefined;
  return {
    id: r.id,
    startedAt: new Date(r.started_at).toISOString(),
    finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
    toolVersion: r.tool_version,
    serviceUrl: r.service_url,
    sandbox: r.sandbox,
    command: r.command,
  };
}

/** A portfolio's recorded month-ends with the run that recorded each and its holdings count, oldest first; [] for an unknown portfolio. */
export async function monthEndRecords(db: Database, portfolio: string): Promise<MonthEndRecord[]> {
  const rows = await db.kysely
    .selectFrom('month_ends as m')
    .innerJoin('portfolios as p', 'p.id', 'm.portfolio_id')
    .select((eb) => [
      asText('m.as_of').as('as_of'),
      'm.value',
      'm.net_flows',
      'm.currency',
      'm.run_id',
      eb.selectFrom('holding_valuations as h').whereRef('h.month_end_id', '=', 'm.id').select(sql<string>`count(*)`.as('n')).as('holdings'),
    ])
    .where('p.name', '=', portfolio)
    .orderBy('m.as_of')
    .execute();
  return rows.map((r) => ({ asOf: r.as_of, value: fromNumeric(r.value), netFlows: fromNumeric(r.net_flows), currency: r.currency, runId: r.run_id, holdings: Number(r.holdings ?? 0) }));
}

/** Every portfolio with a month-end recorded: its first and last month-end and how many, by name. */
export async function portfolioSpans(db: Database): Promise<PortfolioSpan[]> {
  const rows = await db.kysely
    .selectFrom('month_ends as m')
    .innerJoin('portfolios as p', 'p.id', 'm.portfolio_id')
    .select(['p.name', sql<string>`min(m.as_of)::text`.as('first'), sql<string>`max(m.as_of)::text`.as('last'), sql<string>`count(*)`.as('n')])
    .groupBy('p.name')
    .orderBy('p.name')
    .execute();
  return rows.map((r) => ({ portfolio: r.name, first: r.first, last: r.last, monthEnds: Number(r.n) }));
}

/**
 * An asset's value at each month-end, summed over the portfolios holding it then (every
 * holding of that asset id, all units), oldest first, `from`/`to` inclusive; [] when no recorded
 * month-end holds it. The currency is each month-end's reporting currency: month-ends of
 * portfolios reported in different currencies are not added together but kept apart.
 */
export async function assetHistory(db: Database, assetId: string, range: { from?: string; to?: string } = {}): Promise<AssetMonthEnd[]> {
  let q = db.kysely
    .selectFrom('holding_valuations as h')
    .innerJoin('month_ends as m', 'm.id', 'h.month_end_id')
    .select([asText('m.as_of').as('as_of'), 'm.currency', sql<string>`sum(h.value_mid)::text`.as('value'), sql<string>`count(distinct m.portfolio_id)`.as('portfolios')])
    .where('h.asset_id', '=', assetId);
  if (range.from !== undefined) q = q.where('m.as_of', '>=', range.from);
  if (range.to !== undefined) q = q.where('m.as_of', '<=', range.to);
  const rows = await q.groupBy(['m.as_of', 'm.currency']).orderBy('m.as_of').orderBy('m.currency').execute();
  return rows.map((r) => ({ asOf: r.as_of, value: fromNumeric(r.value), currency: r.currency, portfolios: Number(r.portfolios) }));
}

/**
 * Per asset id, the first month-end of the unbroken run of under-insured month-ends that ends at
 * the portfolio's latest month-end before `asOf` (issue 37). A month-end where the asset was not
 * held, had another status, or had no insurance review ends the run; an asset held in several
 * lots counts as under-insured in a month when any of its lines was. Assets not under-insured at
 * that latest month-end are absent: if under-insured now, they are so since this month-end.
 */
export async function underInsuredSince(db: Database, portfolio: string, asOf: string): Promise<Map<string, string>> {
  const rows = await db.kysely
    .selectFrom('month_ends as m')
    .innerJoin('portfolios as p', 'p.id', 'm.portfolio_id')
    .leftJoin('holding_valuations as h', (j) => j.onRef('h.month_end_id', '=', 'm.id').on('h.insurance_status', '=', 'under-insured'))
    .select([asText('m.as_of').as('as_of'), 'h.asset_id'])
    .where('p.name', '=', portfolio)
    .where('m.as_of', '<', asOf)
    .orderBy('m.as_of', 'desc')
    .execute();
  // Month-ends newest first, each with the assets under-insured in it.
  const months: { asOf: string; under: Set<string> }[] = [];
  for (const r of rows) {
    if (months.at(-1)?.asOf !== r.as_of) months.push({ asOf: r.as_of, under: new Set() });
    if (r.asset_id !== null) months.at(-1)!.under.add(r.asset_id);
  }
  const since = new Map<string, string>();
  for (const asset of months[0]?.under ?? []) {
    let first = months[0]!.asOf;
    for (const m of months.slice(1)) {
      if (!m.under.has(asset)) break;
      first = m.asOf;
    }
    since.set(asset, first);
  }
  return since;
}

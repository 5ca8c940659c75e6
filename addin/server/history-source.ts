import type { Database, DatabaseUser } from '../../src/db';
import { assetHistory, ledger, monthEndHoldings, monthEnds, portfolios } from '../../src/db/queries';
import type { LedgerEntry } from '../../src/ledger';
import { periodsFromHistory, type PeriodsResult } from '../../src/performance';
import type { HistoryKind, HistoryMonthEnd } from '../../src/wire';

/** A portfolio's periods at its latest recorded month-end, as its report computed them. */
export interface RecordedPerformance {
  asOf: string;
  currency: string;
  periods: PeriodsResult;
  /** Why the host cannot give the report's figures for any period, when it cannot: a flow of the ledger in another currency, which it holds no rate to convert. */
  problem?: { file: string; row: number; currency: string };
}

/** What a portfolio's exported report needs of its recorded history before a day (issue 34). */
export interface RecordedPast {
  /** The month-end values recorded before the day in the currency asked, oldest first (never empty). */
  monthEnds: { asOf: string; value: number }[];
  /** Each holding's value at the latest of them, by asset id. */
  holdings: { asset_id: string; current_value: number }[];
  /** The ledger recorded with the latest of them (its flows up to that day). */
  ledger: LedgerEntry[];
}

/** Where the host reads history from: the firm's history database (SVC_DB_URL), or a stand-in in tests. */
export interface HistorySource {
  /** The key's recorded month-ends in the range, oldest first; [] when none. */
  monthEnds(kind: HistoryKind, key: string, range: { from?: string; to?: string }): Promise<HistoryMonthEnd[]>;
  /** Every portfolio recorded, by name (an asset's history sums them: who may read it depends on them all). */
  portfolios(): Promise<string[]>;
  /** The portfolio's performance at its latest month-end; undefined when nothing is recorded. */
  performance(portfolio: string): Promise<RecordedPerformance | undefined>;
  /** The portfolio's month-ends recorded before `before` in `currency`, for a report as of that day; undefined when none. */
  past(portfolio: string, before: string, currency: string): Promise<RecordedPast | undefined>;
}

/** The history database as the host's history source: a portfolio's month-ends, or an asset's value summed over the portfolios holding it. */
export function databaseHistory(database: DatabaseUser): HistorySource {
  return {
    // Each request has the database for its query alone (an embedded folder is then free for a month-end).
    monthEnds: (kind, key, range) =>
      database.use(async (db) => {
        if (kind === 'asset') return (await assetHistory(db, key, range)).map((m) => ({ as_of: m.asOf, value: m.value, net_flows: null, currency: m.currency }));
        return (await monthEnds(db, key, range)).map((m) => ({ as_of: m.asOf, value: m.value, net_flows: m.netFlows, currency: m.currency }));
      }),
    portfolios: () => database.use((db) => portfolios(db)),
    performance: (portfolio) => database.use((db) => recordedPerformance(db, portfolio)),
    past: (portfolio, before, currency) => database.use((db) => recordedPast(db, portfolio, before, currency)),
  };
}

/**
 * The month-ends a report as of `before` rests on, as the month-end run reads them: those in
 * another currency left out (not one series), each holding's value at the latest (the month
 * column) and the ledger recorded with it (the flows), in one opening.
 */
async function recordedPast(db: Database, portfolio: string, before: string, currency: string): Promise<RecordedPast | undefined> {
  const all = (await monthEnds(db, portfolio)).filter((m) => m.asOf < before && m.currency === currency);
  const last = all.at(-1);
  if (!last) return undefined;
  const held = await monthEndHoldings(db, portfolio, last.asOf);
  return {
    monthEnds: all.map((m) => ({ asOf: m.asOf, value: m.value })),
    holdings: held.filter((h) => h.currency === currency && h.assetId !== undefined).map((h) => ({ asset_id: h.assetId!, current_value: h.valueMid })),
    ledger: await ledger(db, portfolio, last.asOf),
  };
}

/**
 * The report's own inputs from the database: the month-end values recorded in the latest
 * month-end's currency (those in another are not one series, as the run leaves them out) and the
 * ledger recorded with that month-end, through the report's engine. The database holds no
 * exchange rates: a flow in another currency than the month-ends' cannot be converted as the
 * report did (with its --fx-rates), so no period is given rather than another figure.
 */
async function recordedPerformance(db: Database, portfolio: string): Promise<RecordedPerformance | undefined> {
  const all = await monthEnds(db, portfolio);
  const last = all.at(-1);
  if (!last) return undefined;
  const values = all.filter((m) => m.currency === last.currency).map((m) => ({ asOf: m.asOf, value: m.value }));
  const entries = await ledger(db, portfolio, last.asOf);
  // The only rate it has is 1 for the month-ends' own currency: any other refuses the flow (the route says why, in the user's language).
  const rate = (currency: string) => {
    if (currency === last.currency) return 1;
    throw new Error(`no exchange rate to ${last.currency} on the add-in host`);
  };
  const { periods, problems } = periodsFromHistory(values, entries, rate, last.asOf);
  const first = problems[0];
  const problem = first && { file: first.source.file.split(/[\\/]/).pop()!, row: first.source.row, currency: entries.find((e) => e.source === first.source)?.currency ?? '' };
  return { asOf: last.asOf, currency: last.currency, periods, ...(problem ? { problem } : {}) };
}

import { ledger, monthEndHoldings, monthEndRecords, portfolioSpans, underInsuredSince, type Database } from '../../src/db';
import { isRealDate } from '../../src/wire';
import { UsageError } from '../run/exit-codes';
import { formatMoney } from '../writers/text-format';
import { plainTable } from './plain-table';

/**
 * `history show`: one portfolio's recorded month-ends (as_of, value, net flows, holdings, run),
 * or without --portfolio every portfolio recorded with its first and last month-end. Lines for
 * stdout: a plain table, or one JSON document with --json.
 */
export async function showHistory(db: Database, opts: { portfolio?: string; json?: boolean; transactions?: boolean; asOf?: string }): Promise<string[]> {
  if (opts.portfolio === undefined && (opts.transactions || opts.asOf !== undefined)) throw new UsageError(`--${opts.transactions ? 'transactions' : 'as-of'} needs --portfolio NAME: the ledger recorded is one portfolio's`);
  if (opts.asOf !== undefined && !opts.transactions) throw new UsageError('--as-of chooses the month-end whose ledger --transactions prints: give --transactions too');
  if (opts.portfolio === undefined) {
    const spans = await portfolioSpans(db);
    if (opts.json) return [JSON.stringify({ portfolios: spans.map((s) => ({ portfolio: s.portfolio, first: s.first, last: s.last, month_ends: s.monthEnds })) }, null, 2)];
    if (spans.length === 0) return ['No month-end recorded yet.'];
    return plainTable(['portfolio', 'first', 'last', 'month-ends'], spans.map((s) => [s.portfolio, s.first, s.last, String(s.monthEnds)]), new Set([3]));
  }
  const records = await monthEndRecords(db, opts.portfolio);
  if (records.length === 0) {
    const known = (await portfolioSpans(db)).map((s) => s.portfolio);
    throw new UsageError(`no history recorded for the portfolio "${opts.portfolio}"; ${known.length ? `portfolios recorded: ${known.join(', ')}` : 'nothing is recorded in this database yet'}`);
  }
  if (opts.transactions) return showTransactions(db, opts.portfolio, records.map((r) => r.asOf), opts);
  const under = await underInsuredAtLatest(db, opts.portfolio, records.at(-1)!.asOf);
  if (opts.json) {
    const month_ends = records.map((r) => ({ as_of: r.asOf, value: r.value, currency: r.currency, net_flows: r.netFlows, holdings: r.holdings, run_id: r.runId }));
    return [JSON.stringify({ portfolio: opts.portfolio, month_ends, ...(under.length > 0 ? { under_insured: under } : {}) }, null, 2)];
  }
  const table = plainTable(
    ['as_of', 'value', 'net flows', 'holdings', 'run'],
    records.map((r) => [r.asOf, formatMoney(r.value, r.currency), formatMoney(r.netFlows, r.currency), String(r.holdings), String(r.runId)]),
    new Set([1, 2, 3, 4]),
  );
  if (under.length === 0) return table;
  return [
    ...table,
    '',
    `Under-insured at the month-end of ${records.at(-1)!.asOf} (since: the first month-end of the unbroken run):`,
    ...plainTable(['asset', 'description', 'insured', 'since'], under.map((u) => [u.asset_id, u.description ?? '', u.insured_value === null ? '' : formatMoney(u.insured_value, u.currency), u.since]), new Set([2])),
  ];
}

/**
 * The items under-insured at the portfolio's latest month-end (issue 37) and since when: the first
 * month-end of their unbroken run of under-insured month-ends. [] when none (or no review recorded).
 */
async function underInsuredAtLatest(db: Database, portfolio: string, latest: string) {
  // "Before the day after the latest" is up to and including the latest.
  const dayAfter = new Date(Date.parse(`${latest}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const since = await underInsuredSince(db, portfolio, dayAfter);
  if (since.size === 0) return [];
  const held = await monthEndHoldings(db, portfolio, latest);
  return [...since].map(([asset_id, from]) => {
    const h = held.find((x) => x.assetId === asset_id && x.insuranceStatus === 'under-insured');
    return { asset_id, description: h?.description ?? null, insured_value: h?.insuredValue ?? null, currency: h?.currency ?? '', since: from };
  });
}

/**
 * `history show --portfolio NAME --transactions [--as-of DATE]`: the ledger recorded with the
 * portfolio's latest month-end (or the one on DATE), as the run read it: each row's lot and the
 * unit its quantity counts (issue 34), so what a month-end's realised gains rest on can be read back.
 */
async function showTransactions(db: Database, portfolio: string, recorded: readonly string[], opts: { json?: boolean; asOf?: string }): Promise<string[]> {
  if (opts.asOf !== undefined && !isRealDate(opts.asOf)) throw new UsageError(`--as-of must be a date as YYYY-MM-DD, got "${opts.asOf}"`);
  const asOf = opts.asOf ?? recorded.at(-1)!;
  if (!recorded.includes(asOf)) throw new UsageError(`no month-end of "${portfolio}" is recorded on ${asOf}; recorded: ${recorded.join(', ')}`);
  const entries = await ledger(db, portfolio, asOf);
  const source = (e: (typeof entries)[number]) => `${e.source.file}${e.source.sheet ? ` (sheet ${e.source.sheet})` : ''} row ${e.source.row}`;
  if (opts.json) {
    const transactions = entries.map((e) => ({
      date: e.date,
      type: e.type,
      asset_id: e.assetId ?? null,
      quantity: e.quantity ?? null,
      unit: e.unit ?? null,
      lot: e.lot ?? null,
      amount: e.amount,
      currency: e.currency,
      notes: e.notes ?? null,
      source: source(e),
    }));
    return [JSON.stringify({ portfolio, as_of: asOf, transactions }, null, 2)];
  }
  return [
    `Ledger recorded with the month-end of ${asOf}:`,
    ...plainTable(
      ['date', 'type', 'asset', 'quantity', 'unit', 'lot', 'amount', 'source'],
      entries.map((e) => [e.date, e.type, e.assetId ?? '', e.quantity === undefined ? '' : String(e.quantity), e.unit ?? '', e.lot ?? '', formatMoney(e.amount, e.currency), source(e)]),
      new Set([3, 6]),
    ),
  ];
}

import { monthEndRecords, portfolioSpans, type Database } from '../../src/db';
import { UsageError } from '../run/exit-codes';
import { formatMoney } from '../writers/text-format';
import { plainTable } from './plain-table';

/**
 * `history show`: one portfolio's recorded month-ends (as_of, value, net flows, holdings, run),
 * or without --portfolio every portfolio recorded with its first and last month-end. Lines for
 * stdout: a plain table, or one JSON document with --json.
 */
export async function showHistory(db: Database, opts: { portfolio?: string; json?: boolean }): Promise<string[]> {
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
  if (opts.json) {
    const month_ends = records.map((r) => ({ as_of: r.asOf, value: r.value, currency: r.currency, net_flows: r.netFlows, holdings: r.holdings, run_id: r.runId }));
    return [JSON.stringify({ portfolio: opts.portfolio, month_ends }, null, 2)];
  }
  return plainTable(
    ['as_of', 'value', 'net flows', 'holdings', 'run'],
    records.map((r) => [r.asOf, formatMoney(r.value, r.currency), formatMoney(r.netFlows, r.currency), String(r.holdings), String(r.runId)]),
    new Set([1, 2, 3, 4]),
  );
}

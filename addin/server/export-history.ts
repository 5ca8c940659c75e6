import { holdingAsBuy } from '../../src/ledger/read-ledger';
import type { PortfolioInput } from '../../src/holdings/types';
import { findControlCharacter } from '../../src/wire';
import { aloneBecause, FROM_HISTORY_DATABASE, heldAlone, type HistoryInput } from '../../reports';
import type { HistoryRoute } from './history';
import type { RequestContext } from './auth/request-context';
import { reportProblem } from './auth/request-context';

/**
 * What "Export report" knows of the exported portfolio's past (issue 34): the month-ends the
 * firm's history database recorded for a portfolio of that name, so the report's summary returns,
 * month-on-month and month column are the month-end report's engine over the same month-ends;
 * else the holdings alone, with the reason in the report's `returns_source` and method text.
 *
 * Read by the same right as SVC.HISTORY (ADDIN_PORTFOLIO_ACCESS, checked before the database is
 * asked, so a refusal says nothing of whether the portfolio exists) and audited with its name.
 * The flows are the ledger recorded with the latest month-end, and each row of the sheet bought
 * after it as a purchase on its date (the database knows nothing later). The host holds no
 * exchange rates: a flow in another currency than the report's falls back rather than being left
 * out of the returns.
 */
export async function exportPast(input: PortfolioInput, at: { asOf: string; currency: string }, route: HistoryRoute, ctx: RequestContext): Promise<HistoryInput> {
  const { asOf, currency } = at;
  const alone = (why: string): HistoryInput => ({ ...heldAlone(input, currency), source: aloneBecause(why) });
  if (!route.source) return alone('the add-in host has no history database');
  ctx.historyKey = { portfolio: input.name };
  if (!ctx.user || !route.access.allows(ctx.user, input.name)) return alone(`not allowed to read the recorded history of the portfolio ${input.name}`);
  // No recorded portfolio's name holds a control character (report names refuse them); PostgreSQL would refuse a NUL in the query.
  if (findControlCharacter(input.name)) return heldAlone(input, currency);
  let recorded;
  try {
    recorded = await route.source.past(input.name, asOf, currency);
  } catch (e) {
    // The operator's to see (the database's own words); the report says only that it could not be read.
    reportProblem(`Export report: the history of ${input.name} could not be read: ${e instanceof Error ? e.message : String(e)}`);
    return alone('the history database could not be read just now');
  }
  if (!recorded) return heldAlone(input, currency);
  const latest = recorded.monthEnds.at(-1)!.asOf;
  const entries = [...recorded.ledger, ...input.holdings.filter((h) => h.purchaseDate > latest).map((h) => holdingAsBuy(h, currency))];
  const foreign = [...new Set(entries.map((e) => e.currency).filter((c) => c !== currency))];
  if (foreign.length > 0) return alone(`its flows in ${foreign.join(', ')} cannot be converted to ${currency} without exchange rates, which the add-in host does not hold; the month-end report has them`);
  return {
    ledger: { entries, realisations: [] },
    recorded: recorded.monthEnds,
    source: FROM_HISTORY_DATABASE,
    previousHoldings: { asOf: latest, holdings: recorded.holdings },
  };
}

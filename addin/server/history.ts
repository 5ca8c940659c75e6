import type { ServerResponse } from 'node:http';
import { HISTORY_ERRORS, HistoryQuery, historyKindOf, type HistoryResponse } from '../../src/wire';
import { sendError, sendJson } from './http-util';
import { hostText } from './host-text';
import { sendInvalidQuery } from './query-words';
import type { HistorySource } from './history-source';
import type { RequestContext } from './auth/request-context';
import type { PortfolioAccess } from './portfolio-access';

export interface HistoryRoute {
  /** The firm's history database; undefined: the host has none (SVC_DB_URL unset). */
  source: HistorySource | undefined;
  /** Who may read which portfolio (ADDIN_PORTFOLIO_ACCESS, portfolio-access.ts). */
  access: PortfolioAccess;
}

/** The host's answer when the database is not configured, for every history route. */
export function sendNoDatabase(res: ServerResponse): void {
  sendError(res, 404, HISTORY_ERRORS.noDatabase, hostText('addin.host_no_database'));
}

/** What a refused read was of: a portfolio's history or performance, or an asset's history (summed over portfolios). */
export type RefusedRead = { history: string } | { assetHistory: string } | { performance: string };

/** The 403 a read of a portfolio the user may not see gets; the cell shows it as #N/A. */
export function sendNotAllowed(res: ServerResponse, what: RefusedRead): void {
  const text =
    'history' in what
      ? hostText('addin.host_not_allowed_history', { portfolio: what.history })
      : 'assetHistory' in what
        ? hostText('addin.host_not_allowed_asset_history', { asset: what.assetHistory })
        : hostText('addin.host_not_allowed_performance', { portfolio: what.performance });
  sendError(res, 403, HISTORY_ERRORS.notAllowed, text);
}

/**
 * GET /addin/history?key=…&from=…&to=… (src/wire/history.ts): the recorded month-ends of a
 * portfolio, or of an asset summed over the portfolios holding it. Behind the same cross-site
 * check and sign-in as the host's other routes (host.ts); it spends no service call. Without a
 * history database (SVC_DB_URL unset) it says so, for the cell to show.
 *
 * Only a portfolio the user may read is answered (checked before the database is asked, so a
 * refusal says nothing of whether the portfolio exists); an asset's history sums every portfolio
 * holding it, so it is answered only to a user who may read every recorded portfolio. Each read
 * is audited with the portfolio's name (or the asset id), allowed or refused.
 */
export async function handleHistory(res: ServerResponse, params: URLSearchParams, route: HistoryRoute, ctx: RequestContext): Promise<void> {
  const { source, access } = route;
  if (!source) return sendNoDatabase(res);
  const parsed = HistoryQuery.safeParse({ key: params.get('key') ?? '', from: params.get('from') ?? undefined, to: params.get('to') ?? undefined });
  if (!parsed.success) return sendInvalidQuery(res, parsed.error, 'key', params);
  const { key, from, to } = parsed.data;
  const kind = historyKindOf(key);
  ctx.historyKey = kind === 'asset' ? { asset_id: key } : { portfolio: key };
  const user = ctx.user!;
  if (kind === 'portfolio' && !access.allows(user, key)) return sendNotAllowed(res, { history: key });
  if (kind === 'asset' && !(await source.portfolios()).every((p) => access.allows(user, p))) return sendNotAllowed(res, { assetHistory: key });
  // The dates are the formula's arguments, said back as they were given (as the cell's own check says them: history-table.ts).
  if (from !== undefined && to !== undefined && from > to) return sendError(res, 400, 'validation_error', hostText('addin.cell_from_after_to', { from, to }), { field: 'from' });
  const monthEnds = await source.monthEnds(kind, key, { from, to });
  if (monthEnds.length === 0) {
    const range = from && to ? 'both' : from ? 'from' : to ? 'to' : 'none';
    return sendError(res, 404, HISTORY_ERRORS.noHistory, hostText('addin.host_no_history', { kind, key, range, from: from ?? '', to: to ?? '' }));
  }
  const body: HistoryResponse = { key, kind, month_ends: monthEnds };
  sendJson(res, 200, body);
}

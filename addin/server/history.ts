import type { ServerResponse } from 'node:http';
import { HISTORY_ERRORS, HistoryQuery, historyKindOf, type HistoryResponse } from '../../src/wire';
import { sendError, sendJson } from './http-util';
import type { HistorySource } from './history-source';

/**
 * GET /addin/history?key=…&from=…&to=… (src/wire/history.ts): the recorded month-ends of a
 * portfolio, or of an asset summed over the portfolios holding it. Behind the same cross-site
 * check and sign-in as the host's other routes (host.ts); it spends no service call. Without a
 * history database (SVC_DB_URL unset) it says so, for the cell to show.
 */
export async function handleHistory(res: ServerResponse, params: URLSearchParams, source: HistorySource | undefined): Promise<void> {
  if (!source) {
    return sendError(res, 404, HISTORY_ERRORS.noDatabase, 'The add-in host has no history database configured (SVC_DB_URL): ask your administrator to connect it to the firm\'s history database.');
  }
  const parsed = HistoryQuery.safeParse({ key: params.get('key') ?? '', from: params.get('from') ?? undefined, to: params.get('to') ?? undefined });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? 'key');
    return sendError(res, 400, 'validation_error', `${field} must be ${issue.message}.`, { field });
  }
  const { key, from, to } = parsed.data;
  if (from !== undefined && to !== undefined && from > to) return sendError(res, 400, 'validation_error', `from (${from}) is after to (${to}).`, { field: 'from' });
  const kind = historyKindOf(key);
  const monthEnds = await source.monthEnds(kind, key, { from, to });
  if (monthEnds.length === 0) {
    const range = from || to ? ` between ${from ?? 'the start'} and ${to ?? 'now'}` : '';
    return sendError(res, 404, HISTORY_ERRORS.noHistory, `no history recorded for ${kind === 'asset' ? 'the asset' : 'the portfolio'} ${key}${range}.`);
  }
  const body: HistoryResponse = { key, kind, month_ends: monthEnds };
  sendJson(res, 200, body);
}

import { z } from 'zod';
import { isAssetId } from './asset-id';
import { CalendarDate, Money } from './primitives';

/**
 * The add-in host's history endpoint (issue 23): GET /addin/history?key=…&from=…&to=… answers a
 * portfolio's, or an asset's, recorded month-end values from the firm's history database. Defined
 * once: the host answers it, the add-in (SVC.HISTORY) reads it through this schema.
 */
export const HISTORY_PATH = '/addin/history';

/** What the key names: an asset id (src/wire/asset-id.ts) is an asset, anything else a portfolio's name. */
export type HistoryKind = 'portfolio' | 'asset';
export function historyKindOf(key: string): HistoryKind {
  return isAssetId(key) ? 'asset' : 'portfolio';
}

export const HistoryQuery = z.object({
  key: z.string().trim().min(1, 'a portfolio name or an asset id').max(200),
  from: CalendarDate.optional(),
  to: CalendarDate.optional(),
});
export type HistoryQuery = z.infer<typeof HistoryQuery>;

export const HistoryMonthEnd = z.object({
  as_of: CalendarDate,
  /** The portfolio's value, or the asset's summed over the portfolios holding it, in `currency`. */
  value: Money,
  /** The month's net flows into the portfolio; null for an asset (flows are a portfolio's). */
  net_flows: Money.nullable(),
  currency: z.string().regex(/^[A-Z]{3}$/),
});
export type HistoryMonthEnd = z.infer<typeof HistoryMonthEnd>;

export const HistoryResponse = z.object({
  key: z.string(),
  kind: z.enum(['portfolio', 'asset']),
  /** Oldest first; never empty (nothing recorded is a 404 `no_history`). */
  month_ends: z.array(HistoryMonthEnd).min(1),
});
export type HistoryResponse = z.infer<typeof HistoryResponse>;

/** The error types the endpoint answers besides the host's usual ones (sign-in, cross-site). */
export const HISTORY_ERRORS = {
  /** The host has no history database configured (SVC_DB_URL unset): 404. */
  noDatabase: 'no_history_database',
  /** Nothing recorded for the key in the range: 404. */
  noHistory: 'no_history',
  /** The user may not read the portfolio's history (ADDIN_PORTFOLIO_ACCESS): 403. */
  notAllowed: 'portfolio_not_allowed',
} as const;

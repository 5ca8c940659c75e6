import type { z } from 'zod';
import { ErrorResponse, HISTORY_PATH, HistoryResponse, PERFORMANCE_PATH, PortfolioPerformanceResponse, type HistoryQuery, type PortfolioPerformanceQuery } from '../../../src/wire';
import { InputError } from './input-error';
import { signInHeaders } from './sign-in';
import { addinTranslator, displayLanguageHeader } from './display-language';

/** What SVC.HISTORY asks the add-in host for (GET /addin/history, src/wire/history.ts). */
export type HistoryFetch = (query: HistoryQuery, signal: AbortSignal) => Promise<HistoryResponse>;
/** What SVC.PERFORMANCE asks the add-in host for (GET /addin/performance, src/wire/performance.ts). */
export type PerformanceFetch = (query: PortfolioPerformanceQuery, signal: AbortSignal) => Promise<PortfolioPerformanceResponse>;

/** The reads of the firm's history database, which only the add-in host answers. */
export interface HostReads {
  history: HistoryFetch;
  performance: PerformanceFetch;
}

/**
 * History lives in the firm's database behind the add-in host, not in the valuation service:
 * asked of the host directly (its own routes, the same headers and sign-in as the API proxy),
 * the answer checked against the wire schema. The host's reasons become the cell's: no database
 * configured, nothing recorded, a period not covered or a portfolio the user may not read is
 * #N/A with its sentence; a bad argument #VALUE!.
 */
export function hostReads(origin: string, headers: Record<string, string>): HostReads {
  const get = async <T>(path: string, params: URLSearchParams, schema: z.ZodType<T>, what: 'history' | 'performance', signal: AbortSignal): Promise<T> => {
    let res: Response;
    try {
      // In Excel's display language: the host's reasons (nothing recorded, not allowed, not covered) come back in it.
      res = await fetch(`${origin}${path}?${params}`, { headers: { ...headers, ...displayLanguageHeader(), ...(await signInHeaders()) }, credentials: 'omit', signal });
    } catch (err) {
      if (signal.aborted) throw err;
      throw hostUnreachable(err);
    }
    const body: unknown = await res.json().catch(() => undefined);
    const tr = addinTranslator();
    if (res.ok) {
      const parsed = schema.safeParse(body);
      if (!parsed.success) throw new Error(tr.t('addin.fn_host_unreadable', { what }));
      return parsed.data;
    }
    const problem = ErrorResponse.safeParse(body);
    const message = problem.success ? problem.data.error.message : tr.t('addin.fn_host_status_for', { status: String(res.status), what });
    if (res.status === 400 && problem.success && problem.data.error.field) throw new InputError(problem.data.error.field, message, problem.data.error.allowed_values);
    // 403 and 404 are the host's own answers (not allowed, no database, nothing recorded, not covered): its sentence, as it is.
    if (res.status === 404 || res.status === 403) throw new Error(message);
    throw Object.assign(new Error(message), { status: res.status, type: problem.success ? problem.data.error.type : undefined });
  };
  return {
    history: (query, signal) => {
      const params = new URLSearchParams({ key: query.key });
      if (query.from) params.set('from', query.from);
      if (query.to) params.set('to', query.to);
      return get(HISTORY_PATH, params, HistoryResponse, 'history', signal);
    },
    performance: (query, signal) => {
      const params = new URLSearchParams({ portfolio: query.portfolio, period: query.period });
      if (query.measure) params.set('measure', query.measure);
      return get(PERFORMANCE_PATH, params, PortfolioPerformanceResponse, 'performance', signal);
    },
  };
}

/**
 * The host could not be asked at all: named as the client names it (ConnectionError), so the
 * cell is "unreachable" (and may show its last known answer). The browser's own detail ("Failed
 * to fetch") is quoted inside the sentence, as it gave it.
 */
export function hostUnreachable(err: unknown): Error {
  const reason = err instanceof Error ? err.message : String(err);
  return Object.assign(new Error(addinTranslator().t('addin.fn_host_unreachable', { reason })), { name: 'ConnectionError' });
}

/** Where there is no add-in host to ask (a runtime over the service directly, as in tests of other functions). */
export const noHostReads: HostReads = {
  history: () => Promise.reject(new Error(addinTranslator().t('addin.fn_no_host_reads', { fn: 'SVC.HISTORY' }))),
  performance: () => Promise.reject(new Error(addinTranslator().t('addin.fn_no_host_reads', { fn: 'SVC.PERFORMANCE' }))),
};

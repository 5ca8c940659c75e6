import type { z } from 'zod';
import { ErrorResponse, HISTORY_PATH, HistoryResponse, PERFORMANCE_PATH, PortfolioPerformanceResponse, type HistoryQuery, type PortfolioPerformanceQuery } from '../../../src/wire';
import { InputError } from './input-error';
import { signInHeaders } from './sign-in';

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
  const get = async <T>(path: string, params: URLSearchParams, schema: z.ZodType<T>, what: string, signal: AbortSignal): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(`${origin}${path}?${params}`, { headers: { ...headers, ...(await signInHeaders()) }, credentials: 'omit', signal });
    } catch (err) {
      if (signal.aborted) throw err;
      throw Object.assign(new Error(`The add-in host cannot be reached: ${err instanceof Error ? err.message : String(err)}`), { name: 'ConnectionError' });
    }
    const body: unknown = await res.json().catch(() => undefined);
    if (res.ok) {
      const parsed = schema.safeParse(body);
      if (!parsed.success) throw new Error(`The add-in host answered the ${what} request in a form this add-in does not read (is the host a different version?).`);
      return parsed.data;
    }
    const problem = ErrorResponse.safeParse(body);
    const message = problem.success ? problem.data.error.message : `The add-in host answered ${res.status} for the ${what}.`;
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

const NOT_CONNECTED = "reads the firm's history database through the add-in host; this add-in is not connected to one.";
/** Where there is no add-in host to ask (a runtime over the service directly, as in tests of other functions). */
export const noHostReads: HostReads = {
  history: () => Promise.reject(new Error(`SVC.HISTORY ${NOT_CONNECTED}`)),
  performance: () => Promise.reject(new Error(`SVC.PERFORMANCE ${NOT_CONNECTED}`)),
};

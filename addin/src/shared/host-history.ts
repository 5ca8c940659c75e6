import { ErrorResponse, HISTORY_PATH, HistoryResponse, type HistoryQuery } from '../../../src/wire';
import { InputError } from './input-error';
import { signInHeaders } from './sign-in';

/** What SVC.HISTORY asks the add-in host for (GET /addin/history, src/wire/history.ts). */
export type HistoryFetch = (query: HistoryQuery, signal: AbortSignal) => Promise<HistoryResponse>;

/**
 * History lives in the firm's database behind the add-in host, not in the valuation service:
 * asked of the host directly (its own route, the same headers and sign-in as the API proxy),
 * the answer checked against the wire schema. The host's reasons become the cell's: no database
 * configured or nothing recorded is #N/A with its sentence, a bad date #VALUE!.
 */
export function hostHistory(origin: string, headers: Record<string, string>): HistoryFetch {
  return async (query, signal) => {
    const params = new URLSearchParams({ key: query.key });
    if (query.from) params.set('from', query.from);
    if (query.to) params.set('to', query.to);
    let res: Response;
    try {
      res = await fetch(`${origin}${HISTORY_PATH}?${params}`, { headers: { ...headers, ...(await signInHeaders()) }, credentials: 'omit', signal });
    } catch (err) {
      if (signal.aborted) throw err;
      throw Object.assign(new Error(`The add-in host cannot be reached: ${err instanceof Error ? err.message : String(err)}`), { name: 'ConnectionError' });
    }
    const body: unknown = await res.json().catch(() => undefined);
    if (res.ok) {
      const parsed = HistoryResponse.safeParse(body);
      if (!parsed.success) throw new Error('The add-in host answered the history request in a form this add-in does not read (is the host a different version?).');
      return parsed.data;
    }
    const problem = ErrorResponse.safeParse(body);
    const message = problem.success ? problem.data.error.message : `The add-in host answered ${res.status} for the history.`;
    if (res.status === 400 && problem.success && problem.data.error.field) throw new InputError(problem.data.error.field, message);
    // 404 is the host's own answer (no database, nothing recorded): its sentence, not "not found".
    if (res.status === 404) throw new Error(message);
    throw Object.assign(new Error(message), { status: res.status, type: problem.success ? problem.data.error.type : undefined });
  };
}

/** Where there is no add-in host to ask (a runtime over the service directly, as in tests of other functions). */
export const noHostHistory: HistoryFetch = () => Promise.reject(new Error('SVC.HISTORY reads the firm\'s history database through the add-in host; this add-in is not connected to one.'));

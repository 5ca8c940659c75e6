import type { FetchLike } from '../../src/client';

/**
 * Ctrl-C drains a chunk's call rather than cancelling it once its request has left: the
 * service has already spent the call and is valuing the chunk, so its answer is awaited and
 * journaled (a cancelled one would be valued again on --resume). A call whose request has not
 * left yet (waiting in the window, at the rate gate, or for a retry) is cancelled, and no
 * request of it leaves after the stop.
 *
 * "Left" is known where requests really go out: the client's fetch (departingFetch, installed
 * by connect.ts). The call is named by a header the fetch removes before sending (nothing extra
 * reaches the service); AsyncLocalStorage would do the same but, on Node 20, slows every promise.
 */
const DEPARTURE_HEADER = 'x-svc-report-departure';

interface Departure {
  /** Whether this request may go out; false once the run is stopping (the call is then cancelled). */
  mayLeave(): boolean;
}

const calls = new Map<string, Departure>();
let nextId = 0;

/** The client's fetch, asking the call it serves (if any) whether its request may still leave. */
export function departingFetch(fetch: FetchLike): FetchLike {
  return (input, init) => {
    const headers = init?.headers as Record<string, string> | undefined;
    const id = headers?.[DEPARTURE_HEADER];
    if (id === undefined) return fetch(input, init);
    const { [DEPARTURE_HEADER]: _, ...rest } = headers!;
    if (calls.get(id)?.mayLeave() === false) return Promise.reject(new Error('the run is stopping: no new request leaves'));
    return fetch(input, { ...init, headers: rest });
  };
}

/**
 * Runs `call` with a signal that `stop` aborts only while none of its requests has left, and
 * the headers that name it to departingFetch. Once a request has left, the call is awaited (an
 * answer already being prepared lands), and any further request of it (a retry, a re-send
 * without a refused item) is cancelled instead of leaving.
 */
export async function drained<T>(stop: AbortSignal, call: (signal: AbortSignal, headers: Record<string, string>) => Promise<T>): Promise<T> {
  const own = new AbortController();
  let left = false;
  const onStop = () => {
    if (!left) own.abort(stop.reason);
  };
  if (stop.aborted) own.abort(stop.reason);
  else stop.addEventListener('abort', onStop, { once: true });
  const id = String(nextId++);
  calls.set(id, {
    mayLeave: () => {
      if (stop.aborted) {
        own.abort(stop.reason); // the transport sees its caller's signal aborted: AbortedError
        return false;
      }
      left = true;
      return true;
    },
  });
  try {
    return await call(own.signal, { [DEPARTURE_HEADER]: id });
  } finally {
    calls.delete(id);
    stop.removeEventListener('abort', onStop);
  }
}

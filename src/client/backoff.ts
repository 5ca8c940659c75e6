export interface BackoffOptions {
  /** First retry waits up to this long; each further retry doubles it. */
  baseMs: number;
  /** No single wait exceeds this. */
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 250, capMs: 8_000 };

/**
 * "Full jitter" exponential backoff: a uniform wait in [0, min(cap, base * 2^attempt)].
 * Spreading retries over the whole interval keeps many clients that failed together from
 * retrying together. A Retry-After the service sent is a floor (capped too).
 */
export function retryDelay(attempt: number, opts: BackoffOptions, retryAtMs?: number, nowMs = Date.now(), random = Math.random): number {
  const ceiling = Math.min(opts.capMs, opts.baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = random() * ceiling;
  const floor = retryAtMs !== undefined ? Math.min(opts.capMs, Math.max(0, retryAtMs - nowMs)) : 0;
  return Math.max(jittered, floor);
}

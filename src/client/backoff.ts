export interface BackoffOptions {
  /** First retry waits up to this long; each further retry doubles it. */
  baseMs: number;
  /** No backoff wait exceeds this. */
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 250, capMs: 8_000 };

/**
 * The longest Retry-After the client honours (as openai-node does): a service asking for up to
 * 60 s gets exactly that; a longer (or garbled) ask is not believed and backoff decides.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The wait before a retry. A Retry-After of at most MAX_RETRY_AFTER_MS is honoured as given
 * (the service knows when it will be back); otherwise "full jitter" exponential backoff: a
 * uniform wait in [0, min(cap, base * 2^(attempt-1))], which keeps many clients that failed
 * together from retrying together.
 */
export function retryDelay(attempt: number, opts: BackoffOptions, retryAtMs?: number, nowMs = Date.now(), random = Math.random): number {
  if (retryAtMs !== undefined) {
    const asked = retryAtMs - nowMs;
    if (asked >= 0 && asked <= MAX_RETRY_AFTER_MS) return asked;
  }
  const ceiling = Math.min(opts.capMs, opts.baseMs * 2 ** Math.max(0, attempt - 1));
  return random() * ceiling;
}

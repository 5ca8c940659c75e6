import { RATE_HEADERS } from '../wire';

/** What one response says about the account's budgets; times are epoch milliseconds. */
export interface RateObservation {
  minuteLimit?: number;
  minuteRemaining?: number;
  minuteResetAt?: number;
  dayLimit?: number;
  dayRemaining?: number;
  dayResetAt?: number;
  /** From Retry-After (429, 503). */
  retryAt?: number;
}

/**
 * X-RateLimit-Reset has no unit in the spec, so it is read by magnitude (docs/decisions.md):
 * below 1e9 it is seconds from now (1e9 s is 31 years, longer than any window); below 1e12 it
 * is epoch seconds (1e12 epoch seconds is the year 33658); anything larger is epoch
 * milliseconds. Returns epoch milliseconds, or undefined when the header is absent or garbled.
 */
export function parseResetHeader(value: string | null | undefined, nowMs: number): number | undefined {
  const n = parseNumber(value);
  if (n === undefined || n < 0) return undefined;
  if (n < 1e9) return nowMs + n * 1000;
  if (n < 1e12) return n * 1000;
  return n;
}

/** Retry-After: delta seconds or an HTTP date. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const n = parseNumber(value);
  if (n !== undefined) return n >= 0 ? nowMs + n * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : date;
}

export function readRateHeaders(headers: Headers, nowMs: number): RateObservation {
  return {
    minuteLimit: parseNumber(headers.get(RATE_HEADERS.limit)),
    minuteRemaining: parseNumber(headers.get(RATE_HEADERS.remaining)),
    minuteResetAt: parseResetHeader(headers.get(RATE_HEADERS.reset), nowMs),
    dayLimit: parseNumber(headers.get(RATE_HEADERS.dayLimit)),
    dayRemaining: parseNumber(headers.get(RATE_HEADERS.dayRemaining)),
    dayResetAt: parseResetHeader(headers.get(RATE_HEADERS.dayReset), nowMs),
    retryAt: parseRetryAfter(headers.get('retry-after'), nowMs),
  };
}

function parseNumber(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const t = value.trim();
  if (!/^\d+(\.\d+)?$/.test(t)) return undefined;
  return Number(t);
}

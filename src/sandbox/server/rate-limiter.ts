import { RATE_HEADERS } from '../../wire';
import type { Account } from '../accounts';

interface Usage {
  minuteWindow: number;
  minuteCount: number;
  dayWindow: number;
  dayCount: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Headers for the response (after the call is counted when allowed). */
  headers: Record<string, string>;
  /** Whole seconds until the refusing window resets (only when refused). */
  retryAfterSeconds: number;
  /** Which budget refused the call. */
  exhausted?: 'minute' | 'day';
}

/**
 * Per-account budgets over fixed windows aligned to the epoch (window = floor(now / length)).
 * Only calls that are let through spend budget.
 */
export class RateLimiter {
  private readonly usage = new Map<string, Usage>();

  constructor(
    private readonly minuteMs: number,
    private readonly dayMs: number,
  ) {}

  /** Checks both windows; when `spend` and there is room, counts the call. */
  check(account: Account, spend: boolean, nowMs = Date.now()): RateDecision {
    const u = this.current(account.clientId, nowMs);
    const minuteLeft = account.perMinute - u.minuteCount;
    const dayLeft = account.perDay - u.dayCount;
    const allowed = minuteLeft > 0 && dayLeft > 0;
    if (allowed && spend) {
      u.minuteCount++;
      u.dayCount++;
    }
    const minuteReset = (u.minuteWindow + 1) * this.minuteMs;
    const dayReset = (u.dayWindow + 1) * this.dayMs;
    const headers: Record<string, string> = {
      [RATE_HEADERS.limit]: String(account.perMinute),
      [RATE_HEADERS.remaining]: String(Math.max(0, account.perMinute - u.minuteCount)),
      [RATE_HEADERS.reset]: String(Math.ceil(minuteReset / 1000)),
      [RATE_HEADERS.dayLimit]: String(account.perDay),
      [RATE_HEADERS.dayRemaining]: String(Math.max(0, account.perDay - u.dayCount)),
      [RATE_HEADERS.dayReset]: String(Math.ceil(dayReset / 1000)),
    };
    if (allowed) return { allowed, headers, retryAfterSeconds: 0 };
    const exhausted = dayLeft <= 0 ? 'day' : 'minute';
    const resetAt = exhausted === 'day' ? dayReset : minuteReset;
    return { allowed, headers, exhausted, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - nowMs) / 1000)) };
  }

  private current(clientId: string, nowMs: number): Usage {
    const minuteWindow = Math.floor(nowMs / this.minuteMs);
    const dayWindow = Math.floor(nowMs / this.dayMs);
    let u = this.usage.get(clientId);
    if (!u) {
      u = { minuteWindow, minuteCount: 0, dayWindow, dayCount: 0 };
      this.usage.set(clientId, u);
    }
    if (u.minuteWindow !== minuteWindow) {
      u.minuteWindow = minuteWindow;
      u.minuteCount = 0;
    }
    if (u.dayWindow !== dayWindow) {
      u.dayWindow = dayWindow;
      u.dayCount = 0;
    }
    return u;
  }
}

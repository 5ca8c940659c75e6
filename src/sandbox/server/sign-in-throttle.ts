/**
 * Slows repeated failed client secrets for one client id (a sandbox behaviour, not a promise of
 * the real service; docs/security.md). The first few failures are free (typing errors); each
 * failure after them locks the client id for a delay that doubles up to a cap. While locked,
 * every attempt for that client id is refused with 429 and Retry-After without the secret being
 * checked, so a correct guess cannot be told from a wrong one. A success clears the count.
 * Unknown client ids are counted the same way, so the answers reveal no account.
 */
export interface SignInThrottleRules {
  /** Failures allowed before the first lock. */
  freeFailures: number;
  /** The first lock; each further failure doubles it. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A client id with no failure for this long starts again from zero. */
  forgetAfterMs: number;
}

export const SIGN_IN_THROTTLE: SignInThrottleRules = { freeFailures: 5, baseDelayMs: 1_000, maxDelayMs: 60_000, forgetAfterMs: 15 * 60_000 };

/** Client ids remembered at most (oldest dropped first), so a flood of made-up ids stays bounded. */
const MAX_TRACKED = 100_000;

interface Failures {
  count: number;
  lastAt: number;
  lockedUntil: number;
}

export class SignInThrottle {
  private readonly failures = new Map<string, Failures>();

  constructor(
    private readonly nowMs: () => number = Date.now,
    private readonly rules: SignInThrottleRules = SIGN_IN_THROTTLE,
  ) {}

  /** Milliseconds this client id must still wait before its secret is checked again; 0 when it may try now. */
  waitMs(clientId: string): number {
    const f = this.current(clientId);
    return f ? Math.max(0, f.lockedUntil - this.nowMs()) : 0;
  }

  /** Counts a wrong secret (or unknown id); returns the lock it starts, 0 while failures are still free. */
  failed(clientId: string): number {
    const now = this.nowMs();
    const f = this.current(clientId) ?? { count: 0, lastAt: now, lockedUntil: 0 };
    f.count++;
    f.lastAt = now;
    const over = f.count - this.rules.freeFailures - 1;
    const delay = over < 0 ? 0 : Math.min(this.rules.maxDelayMs, this.rules.baseDelayMs * 2 ** Math.min(over, 30));
    f.lockedUntil = now + delay;
    this.failures.delete(clientId);
    this.failures.set(clientId, f);
    if (this.failures.size > MAX_TRACKED) this.failures.delete(this.failures.keys().next().value!);
    return delay;
  }

  succeeded(clientId: string): void {
    this.failures.delete(clientId);
  }

  private current(clientId: string): Failures | undefined {
    const f = this.failures.get(clientId);
    if (f && this.nowMs() - f.lastAt > this.rules.forgetAfterMs && this.nowMs() >= f.lockedUntil) {
      this.failures.delete(clientId);
      return undefined;
    }
    return f;
  }
}

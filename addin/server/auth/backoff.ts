/** How long a failing dependency is left alone: the first wait, doubling on each failure, never past the cap. */
export interface BackoffSettings {
  firstMs?: number;
  maxMs?: number;
}

export const DEFAULT_BACKOFF_FIRST_MS = 1_000;
export const DEFAULT_BACKOFF_MAX_MS = 5 * 60_000;

/**
 * Exponential backoff for one dependency (the sign-in provider's discovery, its keys): after a
 * failure nothing asks again until the wait is over (1 s, 2 s, 4 s … at most 5 min by default),
 * and callers meanwhile get the remembered failure. A success forgets the failures.
 */
export class Backoff<F> {
  private failures = 0;
  private retryAt = 0;
  private last: F | undefined;

  constructor(
    private readonly settings: BackoffSettings = {},
    private readonly now: () => number = Date.now,
  ) {}

  /** The remembered failure while the wait lasts, else undefined (the caller may ask). */
  pending(): F | undefined {
    return this.failures > 0 && this.now() < this.retryAt ? this.last : undefined;
  }

  /** Milliseconds until the dependency may be asked again (0 when it may be now). */
  waitMs(): number {
    return this.failures > 0 ? Math.max(0, this.retryAt - this.now()) : 0;
  }

  /** The wait the next failure would start. */
  nextWaitMs(): number {
    const first = this.settings.firstMs ?? DEFAULT_BACKOFF_FIRST_MS;
    const max = this.settings.maxMs ?? DEFAULT_BACKOFF_MAX_MS;
    return Math.min(max, first * 2 ** Math.min(this.failures, 40));
  }

  failed(failure: F): void {
    this.retryAt = this.now() + this.nextWaitMs();
    this.failures++;
    this.last = failure;
  }

  succeeded(): void {
    this.failures = 0;
    this.last = undefined;
  }
}

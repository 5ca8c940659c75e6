import { minDefined } from './min-defined';

/**
 * Where a limit in force came from: what the service stated on its answers
 * (X-RateLimit-Limit and -Day), the tier's published figure (expected until the service
 * states one), or a ceiling the caller chose (explicit limits).
 */
export type LimitSource = 'service' | 'tier' | 'ceiling';

/**
 * One of an account's limits (per minute or per day). The service's stated limit is the
 * account's, above or below the tier's published figure (Enterprise limits are custom), and
 * replaces it as soon as an answer states it: lowered, it is followed at once; raised, it is
 * used from the next grant. A ceiling of the caller's own is never exceeded.
 */
export class AccountLimit {
  private stated: number | undefined;

  constructor(
    private expected: number | undefined,
    private ceiling: number | undefined,
  ) {}

  /** The tier's figure expected until the service states one (what a shared gate passes on to the others). */
  get expectedValue(): number | undefined {
    return this.expected;
  }

  /** The caller's own ceiling, if any. */
  get ceilingValue(): number | undefined {
    return this.ceiling;
  }

  /** The limit in force, or undefined while nothing is known. */
  get value(): number | undefined {
    return minDefined(this.stated ?? this.expected, this.ceiling);
  }

  get source(): LimitSource | undefined {
    const base = this.stated ?? this.expected;
    if (this.ceiling !== undefined && (base === undefined || this.ceiling < base)) return 'ceiling';
    if (this.stated !== undefined) return 'service';
    return base === undefined ? undefined : 'tier';
  }

  /** What an answer said; nothing (absent, zero or garbled) leaves the limit as it was. */
  state(limit: number | undefined): void {
    if (limit !== undefined && Number.isFinite(limit) && limit > 0) this.stated = limit;
  }

  /** Another client of the account expects a stricter tier or has a stricter ceiling: the stricter of each is kept. */
  tighten(expected: number | undefined, ceiling: number | undefined): void {
    this.expected = minDefined(this.expected, expected);
    this.ceiling = minDefined(this.ceiling, ceiling);
  }
}

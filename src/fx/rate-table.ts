import type { RatesKind } from './provenance';

/**
 * Exchange rates as the European Central Bank publishes them: units of a currency per 1 EUR,
 * per day. A conversion between two currencies goes through the euro.
 */

/** A rate published more than this many days before the day asked for is too old to use. */
export const MAX_RATE_AGE_DAYS = 7;

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);

/** A rate looked up for a day: the day it was published and its value (units per 1 EUR). */
export interface Quote {
  currency: string;
  date: string;
  perEur: number;
}

/** No usable rate for a currency on a day: the message names both, and says what to do. */
export class MissingRateError extends Error {
  override name = 'MissingRateError';
  constructor(
    readonly currency: string,
    readonly date: string,
    reason: string,
  ) {
    super(`no exchange rate for ${currency} on ${date}: ${reason}`);
  }
}

export class RateTable {
  /** Per currency: days (ascending) and their rates. */
  private readonly series = new Map<string, { days: number[]; dates: string[]; rates: number[] }>();

  /**
   * `rows` in any order; a later row for the same currency and day replaces an earlier one.
   * `source`: the file's name; `kind`: what the file is (provenance.ts), for the Method text.
   */
  constructor(
    rows: Iterable<Quote>,
    readonly source = 'the rates file',
    readonly kind: RatesKind = 'firm',
  ) {
    const byCurrency = new Map<string, Map<string, number>>();
    for (const r of rows) {
      const m = byCurrency.get(r.currency) ?? new Map<string, number>();
      m.set(r.date, r.perEur);
      byCurrency.set(r.currency, m);
    }
    for (const [currency, m] of byCurrency) {
      const dates = [...m.keys()].sort();
      this.series.set(currency, { days: dates.map(dayNumber), dates, rates: dates.map((d) => m.get(d)!) });
    }
  }

  /** Currencies the table has rates for, the euro included. */
  currencies(): string[] {
    return [...new Set(['EUR', ...this.series.keys()])].sort();
  }

  covers(currency: string): boolean {
    return currency === 'EUR' || this.series.has(currency);
  }

  /** Last day with any rate, or undefined for an empty table. */
  lastDate(): string | undefined {
    let last: string | undefined;
    for (const s of this.series.values()) if (!last || s.dates.at(-1)! > last) last = s.dates.at(-1);
    return last;
  }

  /**
   * The rate for `date`: that day's, or the last one published before it (weekends and
   * holidays have none), at most MAX_RATE_AGE_DAYS old. The euro is always 1.
   */
  quote(currency: string, date: string): Quote {
    if (currency === 'EUR') return { currency, date, perEur: 1 };
    const s = this.series.get(currency);
    if (!s) throw new MissingRateError(currency, date, `${this.source} has no ${currency} column or rows`);
    const day = dayNumber(date);
    // Last index with days[i] <= day.
    let lo = 0;
    let hi = s.days.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s.days[mid]! <= day) lo = mid + 1;
      else hi = mid;
    }
    const i = lo - 1;
    if (i < 0) throw new MissingRateError(currency, date, `${this.source} starts on ${s.dates[0]} for ${currency}`);
    if (day - s.days[i]! > MAX_RATE_AGE_DAYS) {
      throw new MissingRateError(currency, date, `the last ${currency} rate before it in ${this.source} is of ${s.dates[i]}, more than ${MAX_RATE_AGE_DAYS} days earlier`);
    }
    return { currency, date: s.dates[i]!, perEur: s.rates[i]! };
  }

  /** Units of `to` for one unit of `from` on `date` (1 for the same currency). */
  rate(from: string, to: string, date: string): number {
    if (from === to) return 1;
    return this.quote(to, date).perEur / this.quote(from, date).perEur;
  }
}

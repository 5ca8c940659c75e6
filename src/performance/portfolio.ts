import type { DatedFlow } from './flows';
import { valueHistory, type ValueHistoryPoint } from './history';
import { performanceOverPeriods, PERIOD_KEYS, type PeriodPerformance, type PeriodsResult } from './periods';
import type { ValuePoint } from './time-weighted';

/**
 * One portfolio's performance at one as-of date (issue 34): the one computation every return
 * figure of a report, a check or a cell is read from — the standard periods, the since-inception
 * money- and time-weighted returns the summary states, the month-on-month change of the whole and
 * of each holding, and the value over time. Pure: the caller gives the recorded month-end values
 * (from the history database, else a previous report, else none), the ledger's flows and today's
 * holdings; where a figure cannot be had, the reason is given once here and every reader prints it.
 */

/** A holding's value on a day; `key` matches a holding across month-ends (an asset id). */
export interface KeyedValue {
  key: string;
  value: number;
}

export interface PortfolioPerformanceInput {
  asOf: string;
  /** Today's value of the whole portfolio, or the reason it is not known (a holding not valued). */
  value: number | { unknown: string };
  /** Values recorded at earlier month-ends (later ones and today's are ignored). */
  recorded: readonly ValuePoint[];
  /** The ledger's flows in the reporting currency (see `ledgerFlows`). */
  flows: readonly DatedFlow[];
  /** Today's valued holdings, in report order. */
  holdings: readonly KeyedValue[];
  /** Each holding's value at the latest recorded month-end, when it is known. */
  previousHoldings?: { asOf: string; holdings: readonly KeyedValue[] };
}

/** The since-inception returns, as the summary states them: the same figures as the period's. */
export interface SinceInception {
  from: string | null;
  days: number;
  annualised: boolean;
  mwr_percent: number | null;
  twr_percent: number | null;
  /** Why mwr_percent (twr_percent) is null: the period's reason, word for word; null when it is given. */
  mwr_unavailable: string | null;
  twr_unavailable: string | null;
}

export interface MonthChange {
  previous_as_of: string;
  previous_value: number;
  change: number;
  change_percent: number | null;
  /** The month's time-weighted return: the `mtd` period's, when the previous value is its start. */
  return_percent: number | null;
  /** Why return_percent is null; null when it is given. */
  return_unavailable: string | null;
}

export interface PortfolioPerformance {
  periods: PeriodsResult;
  sinceInception: SinceInception;
  /** Null when no earlier month-end is recorded (see `monthOnMonthUnavailable`). */
  monthOnMonth: MonthChange | null;
  monthOnMonthUnavailable: string | null;
  /** Per holding of the input, in its order: the change since the previous month-end, or null when it was not held then. */
  holdingChanges: ({ change: number; percent: number | null } | null)[];
  /** The value points the periods rest on (recorded and today's), earliest first. */
  values: ValuePoint[];
  valueHistory: ValueHistoryPoint[];
}

/** The reason month-on-month figures are not given when nothing earlier is recorded; `review` prints it too. */
export const NO_EARLIER_MONTH_END = 'no earlier month-end recorded';

/** Why a period's return is null when nothing more precise is known. */
export const NOT_ENOUGH_HISTORY = 'not enough history';

export function portfolioPerformance(input: PortfolioPerformanceInput): PortfolioPerformance {
  const { asOf } = input;
  const today = typeof input.value === 'number' ? input.value : undefined;
  const earlier = latestByDate(input.recorded.filter((p) => p.asOf < asOf));
  const values: ValuePoint[] = [...earlier, ...(today === undefined ? [] : [{ asOf, value: today }])];
  const periods = performanceOverPeriods(values, input.flows, asOf);
  if (typeof input.value !== 'number') {
    for (const key of PERIOD_KEYS) {
      periods.periods[key] = null;
      periods.unavailable[key] = input.value.unknown;
    }
  }
  const total = today ?? sumOf(input.holdings);
  const previous = earlier.at(-1);
  return {
    periods,
    sinceInception: sinceInception(periods),
    monthOnMonth: previous ? monthChange(previous, total, periods) : null,
    monthOnMonthUnavailable: previous ? null : NO_EARLIER_MONTH_END,
    holdingChanges: holdingChanges(input.holdings, previous && input.previousHoldings?.asOf === previous.asOf ? input.previousHoldings.holdings : undefined),
    values,
    valueHistory: valueHistory(values, input.flows),
  };
}

/** One value per day (the last given), in date order. */
function latestByDate(points: readonly ValuePoint[]): ValuePoint[] {
  return [...new Map(points.map((p) => [p.asOf, p.value])).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([d, value]) => ({ asOf: d, value }));
}

const sumOf = (xs: readonly KeyedValue[]) => xs.reduce((s, x) => s + x.value, 0);

/** Why a period's return is null: the period's own note, or why the period is not there. */
function whyNull(period: PeriodPerformance | null, value: number | null | undefined, unavailable: string | undefined): string | null {
  if (period === null) return unavailable ?? NOT_ENOUGH_HISTORY;
  if (value !== null) return null;
  return period.note ?? NOT_ENOUGH_HISTORY;
}

function sinceInception(periods: PeriodsResult): SinceInception {
  const p = periods.periods.since_inception;
  const why = periods.unavailable.since_inception;
  return {
    from: p?.from ?? null,
    days: p?.days ?? 0,
    annualised: p?.annualised ?? false,
    mwr_percent: p?.mwr_percent ?? null,
    twr_percent: p?.twr_percent ?? null,
    mwr_unavailable: whyNull(p, p?.mwr_percent, why),
    twr_unavailable: whyNull(p, p?.twr_percent, why),
  };
}

function monthChange(previous: ValuePoint, value: number, periods: PeriodsResult): MonthChange {
  const change = value - previous.value;
  const mtd = periods.periods.mtd;
  // The month's return is the month-to-date period's: one figure, whichever page shows it.
  let ret: number | null = null;
  let why: string | null;
  if (mtd !== null && mtd.from !== previous.asOf) why = `the value recorded before this one (${previous.asOf}) is not the previous month-end (${mtd.from})`;
  else {
    ret = mtd?.twr_percent ?? null;
    why = whyNull(mtd, ret, periods.unavailable.mtd);
  }
  return {
    previous_as_of: previous.asOf,
    previous_value: previous.value,
    change,
    change_percent: previous.value === 0 ? null : (change / previous.value) * 100,
    return_percent: ret,
    return_unavailable: why,
  };
}

/**
 * Each holding against its counterpart at the previous month-end: the key plus its occurrence
 * number, so two identical watches in one portfolio each match their own.
 */
function holdingChanges(now: readonly KeyedValue[], before: readonly KeyedValue[] | undefined): ({ change: number; percent: number | null } | null)[] {
  if (!before) return now.map(() => null);
  const then = occurrences(before);
  return [...occurrences(now).entries()].map(([k, h]) => {
    const p = then.get(k);
    if (!p) return null;
    return { change: h.value - p.value, percent: p.value === 0 ? null : ((h.value - p.value) / p.value) * 100 };
  });
}

function occurrences(rows: readonly KeyedValue[]): Map<string, KeyedValue> {
  const seen = new Map<string, number>();
  const out = new Map<string, KeyedValue>();
  for (const r of rows) {
    const n = (seen.get(r.key) ?? 0) + 1;
    seen.set(r.key, n);
    out.set(`${r.key}#${n}`, r);
  }
  return out;
}

import { annualise, moneyWeightedPeriodReturn, moneyWeightedReturn, type CashFlow } from '../returns';
import { addYears, daysBetween, monthEndBefore, monthEndsBetween } from './dates';
import type { DatedFlow } from './flows';
import { timeWeightedReturn, type ValuePoint } from './time-weighted';

/**
 * The client's own performance over the standard periods, from the recorded month-end values and
 * the ledger's flows (issue 23).
 *
 * Where each period starts ("from"), for an as-of date A (normally a month-end):
 * - `mtd`: the month-end before A's month (A = 2026-03-31 → 2026-02-28);
 * - `qtd`: the last quarter's end before A's quarter (A = 2026-03-31 → 2025-12-31; A = 2026-04-30 → 2026-03-31);
 * - `ytd`: 31 December of the year before A's;
 * - `1y`: the end of A's month one year earlier (A = 2026-03-31 → 2025-03-31; A = 2024-02-29 → 2023-02-28):
 *   exactly a year when A is a month-end; when A is not, a little less than a year;
 * - `3y`: the end of A's month three years earlier;
 * - `since_inception`: the first flow's date (on or before A), with start value 0.
 * Every period ends at A. The start value is the value recorded at "from" (after that day's
 * flows), so a period's flows are those dated after "from" up to and including A; since
 * inception also takes the flows of its first day (they are its money, the start value being 0).
 *
 * A period is available when a value is recorded at A and at its "from" (since inception: at A),
 * and the portfolio's first flow is not after "from" (a portfolio that started in March has no
 * year to date: see since inception). Otherwise it is null with the reason. Its time-weighted
 * return also needs a value at every month-end in between (each calendar month is measured between
 * its two month-end values, split at large flows: see time-weighted.ts): when one is missing,
 * `twr_percent` alone is null and `note` names the month-end.
 *
 * A period longer than a year (A after "from" + 1 year, a month-end's year being to the same
 * month's end) is annualised, actual/365, for both returns; a year or shorter is the period's own return.
 */

export const PERIOD_KEYS = ['mtd', 'qtd', 'ytd', '1y', '3y', 'since_inception'] as const;
export type PeriodKey = (typeof PERIOD_KEYS)[number];

export interface PeriodPerformance {
  from: string;
  to: string;
  /** Days from `from` to `to`. */
  days: number;
  /** Longer than a year: both returns are yearly rates; otherwise each is the period's own return. */
  annualised: boolean;
  /** Each month split at large external flows, each sub-period by Modified Dietz, all chain-linked; in percent. */
  twr_percent: number | null;
  /** The IRR over the start value (in at `from`), the flows on their dates and the end value (out at `to`), in percent. */
  mwr_percent: number | null;
  start_value: number;
  end_value: number;
  /** Money in minus money out over the period (positive: the client put money in). */
  net_flows: number;
  /** Why a return is null, when one is. */
  note?: string;
}

export interface PeriodsResult {
  as_of: string;
  periods: Record<PeriodKey, PeriodPerformance | null>;
  /** For each null period, why: "not enough history: …" or "no flows …". */
  unavailable: Partial<Record<PeriodKey, string>>;
}

/** Where `key` starts for as-of `asOf` (see the module's comment); since inception needs the first flow's date. */
export function periodStart(key: PeriodKey, asOf: string, firstFlow?: string): string | null {
  const month = Number(asOf.slice(5, 7));
  switch (key) {
    case 'mtd':
      return monthEndBefore(asOf, 1);
    case 'qtd':
      return monthEndBefore(asOf, ((month - 1) % 3) + 1);
    case 'ytd':
      return monthEndBefore(asOf, month);
    case '1y':
      return monthEndBefore(asOf, 12);
    case '3y':
      return monthEndBefore(asOf, 36);
    case 'since_inception':
      return firstFlow ?? null;
  }
}

/** A period from `from` to `to` is annualised when it is longer than a year. */
export function isLongerThanAYear(from: string, to: string): boolean {
  return to > addYears(from, 1);
}

/**
 * Every standard period's performance at `asOf`. `history`: the recorded values of the whole
 * portfolio (reporting currency), one per month-end (and the as-of date); later ones are ignored,
 * and of two on one day the last is used. `flows`: the ledger's flows (see `ledgerFlows`);
 * those after `asOf` are ignored.
 */
export function performanceOverPeriods(history: readonly ValuePoint[], flows: readonly DatedFlow[], asOf: string): PeriodsResult {
  const values = new Map<string, number>();
  // Values after the as-of date are never looked up: every period ends at it.
  for (const p of history) values.set(p.asOf, p.value);
  const known = flows.filter((f) => f.date <= asOf);
  const firstFlow = known.reduce<string | undefined>((d, f) => (d === undefined || f.date < d ? f.date : d), undefined);
  const end = values.get(asOf);

  const periods = {} as Record<PeriodKey, PeriodPerformance | null>;
  const unavailable: Partial<Record<PeriodKey, string>> = {};
  for (const key of PERIOD_KEYS) {
    const from = periodStart(key, asOf, firstFlow);
    let reason: string | undefined;
    if (end === undefined) reason = `not enough history: no value recorded on ${asOf}`;
    else if (from === null) reason = `no flows in the ledger on or before ${asOf}`;
    else if (key !== 'since_inception' && firstFlow !== undefined && firstFlow > from)
      reason = `not enough history: the portfolio's first flow is on ${firstFlow}, after the period's start (${from})`;
    else if (key !== 'since_inception' && !values.has(from)) reason = `not enough history: no value recorded on ${from}`;
    if (reason !== undefined || from === null || end === undefined) {
      periods[key] = null;
      unavailable[key] = reason;
      continue;
    }
    periods[key] = periodPerformance(from, asOf, key === 'since_inception', values, known, end);
  }
  return { as_of: asOf, periods, unavailable };
}

function periodPerformance(
  from: string,
  to: string,
  inception: boolean,
  values: ReadonlyMap<string, number>,
  flows: readonly DatedFlow[],
  end: number,
): PeriodPerformance {
  const start = inception ? 0 : values.get(from)!;
  const inside = flows.filter((f) => (inception ? f.date >= from : f.date > from) && f.date <= to);
  const days = daysBetween(from, to);
  const annualised = isLongerThanAYear(from, to);
  const notes: string[] = [];

  // Time-weighted: each calendar month (the first and last possibly part of one) split at large flows, chain-linked.
  const between = monthEndsBetween(from, to);
  const missing = between.filter((m) => !values.has(m));
  let twr: number | null = null;
  if (missing.length > 0) {
    notes.push(`time-weighted return: not enough history: ${missingMonths(missing)}`);
  } else {
    const points = [{ date: from, value: start }, ...between.map((m) => ({ date: m, value: values.get(m)! })), { date: to, value: end }];
    const t = timeWeightedReturn(points, inside, inception);
    if (t.note) notes.push(`time-weighted return: ${t.note}`);
    twr = annualised ? annualise(t.return_percent, days) : t.return_percent;
  }

  // Money-weighted: the start value paid in at `from`, each flow on its day, the end value taken out at `to`.
  const cash: CashFlow[] = [
    ...(start !== 0 ? [{ date: from, amount: -start }] : []),
    ...inside.map((f) => ({ date: f.date, amount: -f.amount })),
    { date: to, amount: end },
  ];
  const mwr = annualised ? moneyWeightedReturn(cash) : moneyWeightedPeriodReturn(cash);
  if (mwr === null) notes.push('money-weighted return: no money in, or all of it on one day');

  return {
    from,
    to,
    days,
    annualised,
    twr_percent: twr,
    mwr_percent: mwr,
    start_value: start,
    end_value: end,
    net_flows: inside.reduce((s, f) => s + f.amount, 0),
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
  };
}

/** "no value recorded on 2025-03-31", or for many "no value recorded for 140 month-ends, 2014-03-31 to 2025-10-31". */
function missingMonths(missing: readonly string[]): string {
  return missing.length <= 3 ? `no value recorded on ${missing.join(', ')}` : `no value recorded for ${missing.length} month-ends, ${missing[0]} to ${missing.at(-1)}`;
}

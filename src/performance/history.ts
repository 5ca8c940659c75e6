import { monthEndBefore } from './dates';
import type { DatedFlow } from './flows';
import { subPeriodReturn, type ValuePoint } from './time-weighted';

/** One recorded month-end for the value-over-time chart and `value_history`. */
export interface ValueHistoryPoint {
  as_of: string;
  value: number;
  /** Money in minus money out since the point before (the first point: every flow up to it). */
  net_flows: number;
  /** The month's Modified Dietz return in percent; null for the first point, or when the point before is not the previous month-end. */
  return_percent: number | null;
}

/** The recorded values in date order, each with the net flows since the one before and the month's return. */
export function valueHistory(history: readonly ValuePoint[], flows: readonly DatedFlow[]): ValueHistoryPoint[] {
  const points = [...new Map(history.map((p) => [p.asOf, p.value])).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return points.map(([asOf, value], i) => {
    const before = i > 0 ? points[i - 1]! : undefined;
    const net = flows.filter((f) => f.date <= asOf && (before === undefined || f.date > before[0])).reduce((s, f) => s + f.amount, 0);
    const consecutive = before !== undefined && before[0] === monthEndBefore(asOf, 1);
    return {
      as_of: asOf,
      value,
      net_flows: net,
      return_percent: consecutive ? subPeriodReturn(before[0], before[1], asOf, value, flows).return_percent : null,
    };
  });
}

import { monthEndBefore } from './dates';
import type { DatedFlow } from './flows';
import { monthReturn, type ValuePoint } from './time-weighted';

/** One recorded month-end for the value-over-time chart and `value_history`. */
export interface ValueHistoryPoint {
  as_of: string;
  value: number;
  /** Money in minus money out since the point before (the first point: every flow up to it). */
  net_flows: number;
  /**
   * The month's time-weighted return in percent, split at large flows as every period's is
   * ({@link monthReturn}). The first point's month, when the portfolio's first flow is in it, runs
   * from that flow (as since inception does). Null when the point before is not the previous
   * month-end, or for a first point whose flows began in an earlier month.
   */
  return_percent: number | null;
}

/** The recorded values in date order, each with the net flows since the one before and the month's return. */
export function valueHistory(history: readonly ValuePoint[], flows: readonly DatedFlow[]): ValueHistoryPoint[] {
  const points = [...new Map(history.map((p) => [p.asOf, p.value])).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const firstFlow = flows.reduce<string | undefined>((d, f) => (d === undefined || f.date < d ? f.date : d), undefined);
  return points.map(([asOf, value], i) => {
    const before = i > 0 ? points[i - 1]! : undefined;
    const net = flows.filter((f) => f.date <= asOf && (before === undefined || f.date > before[0])).reduce((s, f) => s + f.amount, 0);
    let month: number | null = null;
    if (before !== undefined) {
      if (before[0] === monthEndBefore(asOf, 1)) month = monthReturn(before[0], before[1], asOf, value, flows).return_percent;
    } else if (firstFlow !== undefined && firstFlow > monthEndBefore(asOf, 1) && firstFlow <= asOf) {
      month = monthReturn(firstFlow, 0, asOf, value, flows, true).return_percent;
    }
    return { as_of: asOf, value, net_flows: net, return_percent: month };
  });
}

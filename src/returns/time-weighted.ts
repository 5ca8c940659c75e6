/**
 * The time-weighted return: sub-period returns, each free of the money that came in or went out
 * during it, linked by multiplication. It measures what the holdings did, not when money arrived.
 */

/** Money added (positive) or taken out (negative) during a period, and when. */
export interface PeriodFlow {
  amount: number;
  /** Share of the period still to run after the flow: 1 at the start, 0 at the end. */
  remaining: number;
}

/**
 * One period's return in percent by the Modified Dietz method: the gain net of flows over the
 * starting value plus each flow weighted by the time it was invested. Null when nothing was
 * invested over the period (no base to measure against).
 */
export function periodReturn(start: number, end: number, flows: readonly PeriodFlow[] = []): number | null {
  const net = flows.reduce((s, f) => s + f.amount, 0);
  const base = start + flows.reduce((s, f) => s + f.amount * Math.min(1, Math.max(0, f.remaining)), 0);
  if (!(base > 0)) return null;
  return ((end - start - net) / base) * 100;
}

/** Period returns in percent linked into one: (1 + r1)(1 + r2)… − 1. Null when any is null or there are none. */
export function chainLink(returns: readonly (number | null)[]): number | null {
  if (returns.length === 0 || returns.some((r) => r === null || !Number.isFinite(r))) return null;
  return (returns.reduce<number>((g, r) => g * (1 + r! / 100), 1) - 1) * 100;
}

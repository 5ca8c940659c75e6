import type { LedgerEntry, LedgerProblem } from '../ledger/types';
import { ledgerFlows, type DatedFlow, type RateFunction } from './flows';
import type { PeriodsResult } from './periods';
import { portfolioPerformance } from './portfolio';
import type { ValuePoint } from './time-weighted';

/**
 * One portfolio's performance over the standard periods at `asOf`, from what its history holds:
 * the month-end values (one currency; the one at `asOf` is the portfolio's value that day) and the
 * ledger's entries, turned into flows at `rate`. The add-in's SVC.PERFORMANCE (through the host's
 * history database) reads this; it is the report's own computation (`portfolioPerformance`, which
 * reports/build/performance.ts calls with the same flows), so a cell and a report page give one figure.
 * A row whose rate cannot be had is left out of the flows and returned as a problem.
 */
export function periodsFromHistory(values: readonly ValuePoint[], entries: readonly LedgerEntry[], rate: RateFunction, asOf: string): { periods: PeriodsResult; flows: DatedFlow[]; problems: LedgerProblem[] } {
  const { flows, problems } = ledgerFlows(entries, rate);
  const today = [...values].reverse().find((p) => p.asOf === asOf);
  const perf = portfolioPerformance({
    asOf,
    value: today ? today.value : { unknown: `no value recorded on ${asOf}` },
    recorded: values,
    flows,
    holdings: [],
  });
  return { periods: perf.periods, flows, problems };
}

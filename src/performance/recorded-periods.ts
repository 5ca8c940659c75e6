import type { LedgerEntry, LedgerProblem } from '../ledger/types';
import { ledgerFlows, type DatedFlow, type RateFunction } from './flows';
import { performanceOverPeriods, type PeriodsResult } from './periods';
import type { ValuePoint } from './time-weighted';

/**
 * One portfolio's performance over the standard periods at `asOf`, from what its history holds:
 * the month-end values (one currency) and the ledger's entries, turned into flows at `rate`.
 * The month-end report (reports/build/history.ts) and the add-in's SVC.PERFORMANCE (through the
 * host's history database) both call this, so a cell and a report page give one figure.
 * A row whose rate cannot be had is left out of the flows and returned as a problem.
 */
export function periodsFromHistory(values: readonly ValuePoint[], entries: readonly LedgerEntry[], rate: RateFunction, asOf: string): { periods: PeriodsResult; flows: DatedFlow[]; problems: LedgerProblem[] } {
  const { flows, problems } = ledgerFlows(entries, rate);
  return { periods: performanceOverPeriods(values, flows, asOf), flows, problems };
}

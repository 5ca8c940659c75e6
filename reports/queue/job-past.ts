import type { HistoryInput } from '../build/performance';
import type { PreviousRun } from '../build/previous';
import { portfolioPast } from '../run/history-store';
import type { PortfolioLedger } from '../run/run-inputs';

/**
 * What a worker read of a portfolio's past for its report (issue 34), sent back in its signed
 * result so the coordinating run's consolidated report rests on the very same month-ends: the
 * worker holds the history database (its own --db), the coordinating run need not reach it, and
 * the consolidated figures are then the sums of the portfolios' as their reports state them. The
 * ledger is not sent back: the coordinating run queued it and has it.
 */
export type JobPast = Omit<HistoryInput, 'ledger'>;

/** The part of a worker's `HistoryInput` its result carries. */
export function jobPast(known: HistoryInput): JobPast {
  const { ledger: _ledger, ...past } = known;
  return past;
}

/**
 * A portfolio's past for the consolidated report: the worker's (with the ledger the run queued),
 * else — a portfolio no worker reported on (its job failed, or its result was kept from a worker
 * that did not send it) — what the run alone knows: the previous report, else the holdings.
 */
export function consolidatedPast(
  sent: JobPast | undefined,
  ledger: PortfolioLedger,
  at: { portfolio: string; asOf: string; currency: string },
  previous: PreviousRun | undefined,
  log: (line: string) => void,
): Promise<HistoryInput> {
  if (sent) return Promise.resolve({ ledger, ...sent });
  return portfolioPast(undefined, ledger, at, previous, log);
}

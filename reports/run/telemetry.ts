import type { CallObserver } from '../../src/client';
import type { BudgetSource, Log } from '../../src/ops';

/** Where a month-end portfolio stands, for the metrics (docs/operations.md). */
export type PortfolioPhase = 'queued' | 'in_progress' | 'done' | 'failed';

/**
 * What the month-end code tells the outside about its progress: the client's calls, each
 * portfolio moving between phases, chunks journaled, files written. The run, the queue's
 * coordinator and the worker call it; reports/ops implements it with Prometheus series. The
 * run code never depends on prom-client.
 */
export interface RunTelemetry {
  /** The API client's hook for each exchange with the service. */
  onCall?: CallObserver;
  /** The API client's log (debug lines, token renewals), the process's own; it learns the client secret to scrub. */
  logger?: Log;
  /** A portfolio moved from one phase to another (from undefined: it is new to this process). */
  portfolio(from: PortfolioPhase | undefined, to: PortfolioPhase): void;
  /** One chunk of answers written to the journal (the checkpoint file or Redis). */
  chunkJournaled(phase: 'valuations' | 'scores'): void;
  /** Report files written (paths; the format is their extension). */
  filesWritten(paths: readonly string[]): void;
  /** The account's budget, read at each scrape (the connection's client). */
  watchBudget?(source: BudgetSource): void;
}

/** The default: nothing is told. */
export const NO_TELEMETRY: RunTelemetry = {
  portfolio() {},
  chunkJournaled() {},
  filesWritten() {},
};

/** The job's exit codes (docs/report-job.md). */
export const EXIT = {
  /** Every holding valued. */
  ok: 0,
  /** Anything unexpected: service unreachable, credentials refused, a bug. */
  failure: 1,
  /** Bad usage or unreadable input. */
  usage: 2,
  /** Finished, but some holdings were not valued (listed in the reports' errors), or ledger rows were refused (listed on stderr, "N ledger rows refused"). */
  partial: 3,
  /** Interrupted (Ctrl-C); the checkpoint is kept for --resume. */
  interrupted: 130,
} as const;

/** Bad usage: a missing or contradictory option. Exit code 2, message only. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The run stopped on SIGINT; the message says how to resume. */
export class InterruptedError extends Error {
  override name = 'InterruptedError';
}

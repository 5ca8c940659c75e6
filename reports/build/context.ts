import type { PreviousRun } from './previous';

/** What every report of one run shares. */
export interface BuildContext {
  asOf: string;
  currency: string;
  /** Recorded once per run (checkpoint), so a resumed run prints the same. */
  generatedAt: string;
  sandbox: boolean;
  preparedBy?: string;
  previous?: PreviousRun;
}

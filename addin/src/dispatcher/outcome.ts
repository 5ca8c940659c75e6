import type { Outcome as ClientOutcome } from '../../../src/client/outcome';

/**
 * One item's answer inside a batch: the shared client's Outcome (one outcome type for the
 * project), with any Error as the failure, since the dispatcher also meets cancellations and
 * host errors besides the service's own.
 */
export type Outcome<T> = ClientOutcome<T, Error>;

/** Sends up to `maxBatch` requests in one upstream call and answers each in input order. */
export type BatchFunction<Req, Res> = (requests: Req[], signal: AbortSignal) => Promise<Outcome<Res>[]>;

/** Raised to a waiter whose invocation was cancelled (Excel dropped the cell). */
export class CancelledError extends Error {
  constructor() {
    super('The calculation was cancelled.');
    this.name = 'AbortError';
  }
}

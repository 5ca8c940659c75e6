/** One item's answer inside a batch: the same shape the shared client's valueAll returns. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: Error };

/** Sends up to `maxBatch` requests in one upstream call and answers each in input order. */
export type BatchFunction<Req, Res> = (requests: Req[], signal: AbortSignal) => Promise<Outcome<Res>[]>;

/** Raised to a waiter whose invocation was cancelled (Excel dropped the cell). */
export class CancelledError extends Error {
  constructor() {
    super('The calculation was cancelled.');
    this.name = 'AbortError';
  }
}

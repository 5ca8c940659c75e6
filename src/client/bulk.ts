import type { z } from 'zod';
import { MAX_BATCH } from '../wire';
import { assetMismatch } from './asset-check';
import { AbortedError, DailyLimitExhaustedError, InvalidResponseError, ServiceError } from './errors';
import { batchItemIndex, reindexItemError } from './item-errors';
import type { Outcome } from './outcome';
import { abortedError } from './sleep';
import type { RequestOptions } from './transport';
import { ConfigurationError } from './options';
import { checkInput } from './validate';

export interface BulkProgress {
  /** Items whose chunk has landed (success or not). */
  done: number;
  total: number;
}

/** One chunk's results, handed to `onChunk` once they are all in. */
export interface LandedChunk<T> {
  /** Positions in the run's input array that this chunk settles, ascending (items refused before sending included). */
  indices: readonly number[];
  /** One outcome per index, same order. */
  outcomes: readonly Outcome<T>[];
}

export interface BulkOptions<T = unknown> {
  onProgress?(progress: BulkProgress): void;
  /**
   * Awaited for every chunk once its results are in, before the chunk counts as landed (in
   * progress and in the returned array): the report job journals the chunk here. Chunks land
   * in any order when several are in flight. A throw stops the run: no new chunk is sent,
   * chunks in flight are awaited and landed, then the run rejects with that error.
   */
  onChunk?(chunk: LandedChunk<T>): void | Promise<void>;
  /**
   * Stops the run: no new call leaves once it fires; calls in flight are aborted (a chunk
   * whose answer was already in still lands); the run then rejects with AbortedError.
   */
  signal?: AbortSignal;
  /** Extra headers for every request of the run (e.g. x-sandbox-as-of). */
  headers?: Record<string, string>;
  /** Chunks in flight at once (default: the client's `concurrency`, else 8). The rate gate paces the calls whatever this is. */
  concurrency?: number;
  /** Per call of the run, over the client's. */
  timeoutMs?: number;
  maxRetries?: number;
}

export interface BulkSpec<O> {
  operation: string;
  itemSchema: z.ZodType;
  /** Sends one chunk of checked items; answers one result per item, in order. */
  send(items: unknown[], opts: RequestOptions): Promise<O[]>;
  /** The asset id an answer is for: each answer is checked against its request item (assetMismatch). */
  answeredId(value: O): string;
}

export const DEFAULT_BULK_CONCURRENCY = 8;

/**
 * Any number of items through batch calls of at most 50, several in flight (bounded by
 * `concurrency`; the rate gate alone decides when each call leaves). One outcome per item, in
 * input order, and one bad item never costs the others:
 * - items failing the shared schema get their error without a call (checked as chunks form);
 * - when the service refuses a chunk with a 400 naming `assets[i]…`, item i gets that error
 *   and the rest of the chunk is sent again (until the chunk is clean);
 * - when the day's budget runs out, every item not yet valued gets DailyLimitExhaustedError
 *   at once (no further calls) and the run resolves with what it has;
 * - an answer for another asset than its item named gets AssetMismatchError (that item only);
 *   an answer with a different number of results fails the call's items (they cannot be matched).
 */
export async function runBulk<O>(items: readonly unknown[], spec: BulkSpec<O>, opts: BulkOptions<O> = {}): Promise<Outcome<O>[]> {
  const total = items.length;
  const outcomes: (Outcome<O> | undefined)[] = new Array(total);
  const checked: unknown[] = new Array(total);
  const signal = opts.signal;
  let done = 0;
  const report = () => opts.onProgress?.({ done, total });

  // Items are checked as chunks are formed, just before sending, so the first call leaves at
  // once instead of after checking every item of a large run.
  let cursor = 0;
  const nextChunk = (): { indices: number[]; send: number[]; early: Map<number, Outcome<O>> } | undefined => {
    const indices: number[] = [];
    const send: number[] = [];
    const early = new Map<number, Outcome<O>>();
    while (send.length < MAX_BATCH && cursor < total) {
      const i = cursor++;
      indices.push(i);
      const r = checkInput(spec.itemSchema, items[i], spec.operation);
      if (r.ok) {
        checked[i] = r.value;
        send.push(i);
      } else early.set(i, r);
    }
    return indices.length > 0 ? { indices, send, early } : undefined;
  };
  let exhausted: DailyLimitExhaustedError | undefined;
  const requestOpts: RequestOptions = { signal, headers: opts.headers, timeoutMs: opts.timeoutMs, maxRetries: opts.maxRetries };

  /** Sends a chunk's valid items until each has an outcome; rejects on abort or a failure that is not an item's. */
  const runChunk = async (send: number[], settled: Map<number, Outcome<O>>) => {
    let pending = send;
    while (pending.length > 0) {
      if (exhausted) {
        for (const i of pending) settled.set(i, { ok: false, error: exhausted });
        return;
      }
      try {
        const values = await spec.send(
          pending.map((i) => checked[i]),
          requestOpts,
        );
        if (values.length !== pending.length) {
          const err = new InvalidResponseError({
            status: 0,
            type: 'invalid_response',
            message: `The service answered ${values.length} results for ${pending.length} items in one ${spec.operation} call.`,
            operation: spec.operation,
          });
          for (const i of pending) settled.set(i, { ok: false, error: err });
        } else {
          pending.forEach((i, k) => {
            const value = values[k]!;
            const mismatch = assetMismatch(checked[i], spec.answeredId(value), spec.operation);
            settled.set(i, mismatch ? { ok: false, error: mismatch } : { ok: true, value });
          });
        }
        return;
      } catch (e) {
        if (e instanceof AbortedError || !(e instanceof ServiceError)) throw e;
        if (e instanceof DailyLimitExhaustedError) {
          exhausted = e;
          continue;
        }
        const k = batchItemIndex(e, pending.length);
        if (k === undefined) {
          for (const i of pending) settled.set(i, { ok: false, error: e });
          return;
        }
        settled.set(pending[k]!, { ok: false, error: reindexItemError(e, undefined) });
        pending = pending.filter((_, j) => j !== k);
      }
    }
  };

  let failure: { error: unknown } | undefined;
  const stopped = () => failure !== undefined || signal?.aborted === true;
  const worker = async () => {
    while (!stopped()) {
      const chunk = nextChunk();
      if (!chunk) return;
      try {
        const settled = chunk.early;
        await runChunk(chunk.send, settled);
        const landed = chunk.indices.map((i) => settled.get(i)!);
        await opts.onChunk?.({ indices: chunk.indices, outcomes: landed });
        chunk.indices.forEach((i, k) => (outcomes[i] = landed[k]));
        done += chunk.indices.length;
        report();
      } catch (e) {
        failure ??= { error: e };
        return;
      }
    }
  };
  const concurrency = Math.max(1, Math.min(chunksInFlight(opts.concurrency), Math.ceil(total / MAX_BATCH)));
  report();
  // Every worker is awaited, also after a failure: nothing is left in flight when the run settles.
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (signal?.aborted && done < total) throw failure?.error instanceof AbortedError ? failure.error : abortedError(spec.operation);
  if (failure) throw failure.error;
  return outcomes as Outcome<O>[];
}

function chunksInFlight(wanted: number | undefined): number {
  if (wanted === undefined) return DEFAULT_BULK_CONCURRENCY;
  if (!Number.isInteger(wanted) || wanted < 1) throw new ConfigurationError(`concurrency must be a whole number of at least 1, not ${String(wanted)}`, 'concurrency');
  return wanted;
}

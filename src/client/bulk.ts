import type { z } from 'zod';
import { MAX_BATCH } from '../wire';
import { AbortedError, BadRequestError, DailyLimitExhaustedError, InvalidResponseError, ServiceError } from './errors';
import type { RequestOptions } from './transport';
import { checkInput } from './validate';

/** One input item's result: its value, or why it has none. */
export type ItemOutcome<T> = { ok: true; value: T } | { ok: false; error: ServiceError };

export interface BulkProgress {
  /** Items with a final outcome, success or not. */
  done: number;
  total: number;
}

export interface BulkOptions {
  onProgress?(progress: BulkProgress): void;
  signal?: AbortSignal;
  /** Extra headers for every request of the run (e.g. x-sandbox-as-of). */
  headers?: Record<string, string>;
  /** Chunks in flight at once (default 8); the rate gate paces them whatever this is, and several in flight keep a slow answer from leaving a slot unused. */
  concurrency?: number;
}

export interface BulkSpec<O> {
  operation: string;
  itemSchema: z.ZodType;
  /** Sends one chunk of checked items; answers one result per item, in order. */
  send(items: unknown[], opts: RequestOptions): Promise<O[]>;
}

/**
 * Any number of items through batch calls of at most 50. Results come back in input order,
 * one outcome per item, and one bad item never costs the others:
 * - items failing the shared schema get their error without a call (checked as chunks form);
 * - when the service refuses a chunk with a 400 naming `assets[i]…`, item i gets that error
 *   and the rest of the chunk is sent again (until the chunk is clean);
 * - when the day's budget runs out, every item not yet valued gets DailyLimitExhaustedError
 *   at once (no further calls) and the run resolves with what it has.
 * An abort rejects the whole run with AbortedError.
 */
export async function runBulk<O>(items: readonly unknown[], spec: BulkSpec<O>, opts: BulkOptions = {}): Promise<ItemOutcome<O>[]> {
  const total = items.length;
  const outcomes: (ItemOutcome<O> | undefined)[] = new Array(total);
  const checked: unknown[] = new Array(total);
  let done = 0;
  const settle = (i: number, outcome: ItemOutcome<O>) => {
    if (outcomes[i] === undefined) done++;
    outcomes[i] = outcome;
  };
  const report = () => opts.onProgress?.({ done, total });

  // Items are checked as chunks are formed, just before sending, so the first call leaves at
  // once instead of after checking every item of a large run.
  let cursor = 0;
  const nextChunk = (): number[] | undefined => {
    const chunk: number[] = [];
    while (chunk.length < MAX_BATCH && cursor < total) {
      const i = cursor++;
      const r = checkInput(spec.itemSchema, items[i], spec.operation);
      if (r.ok) {
        checked[i] = r.value;
        chunk.push(i);
      } else settle(i, r);
    }
    return chunk.length > 0 ? chunk : undefined;
  };
  let exhausted: DailyLimitExhaustedError | undefined;
  const requestOpts: RequestOptions = { signal: opts.signal, headers: opts.headers };

  const runChunk = async (chunk: number[]) => {
    let pending = chunk;
    while (pending.length > 0) {
      if (exhausted) {
        for (const i of pending) settle(i, { ok: false, error: exhausted });
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
          for (const i of pending) settle(i, { ok: false, error: err });
        } else {
          pending.forEach((i, k) => settle(i, { ok: true, value: values[k]! }));
        }
        return;
      } catch (e) {
        if (e instanceof AbortedError || !(e instanceof ServiceError)) throw e;
        if (e instanceof DailyLimitExhaustedError) {
          exhausted = e;
          continue;
        }
        const k = badItemIndex(e, pending.length);
        if (k === undefined) {
          for (const i of pending) settle(i, { ok: false, error: e });
          return;
        }
        settle(pending[k]!, { ok: false, error: itemError(e as BadRequestError, k) });
        pending = pending.filter((_, j) => j !== k);
        report();
      }
    }
  };

  const worker = async () => {
    for (let chunk = nextChunk(); chunk; chunk = nextChunk()) {
      await runChunk(chunk);
      report();
    }
  };
  const concurrency = Math.max(1, Math.min(opts.concurrency ?? 8, Math.ceil(total / MAX_BATCH)));
  report();
  await Promise.all(Array.from({ length: concurrency }, worker));
  report();
  return outcomes as ItemOutcome<O>[];
}

/** The position inside the chunk that a 400's field names ("assets[3].segment" → 3). */
function badItemIndex(e: ServiceError, size: number): number | undefined {
  if (!(e instanceof BadRequestError) || !e.field) return undefined;
  const m = /^assets\[(\d+)\]/.exec(e.field);
  if (!m) return undefined;
  const k = Number(m[1]);
  return k < size ? k : undefined;
}

/** The chunk's error re-worded for the item alone: "assets[3].segment …" becomes "segment …". */
function itemError(e: BadRequestError, k: number): BadRequestError {
  const prefix = `assets[${k}]`;
  const strip = (text: string) => text.split(`${prefix}.`).join('').split(prefix).join('item');
  return new BadRequestError({
    status: e.status,
    type: e.type,
    action: e.action,
    message: strip(e.message),
    field: strip(e.field ?? '') || undefined,
    allowedValues: e.allowedValues,
    operation: e.operation,
  });
}

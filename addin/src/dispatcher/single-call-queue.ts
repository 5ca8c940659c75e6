import type { AnswerStore } from './answer-store';
import { CoalescingQueue, type AnswerCheck } from './coalescing-queue';

/**
 * For operations the service has no batch form of: identical requests still share one
 * call and one cached answer, and a call nobody waits for any more is aborted.
 */
export function singleCallQueue<Req, Res>(options: {
  call: (request: Req, signal: AbortSignal) => Promise<Res>;
  keyOf: (request: Req) => string;
  expiresAt: (response: Res, now: number) => number;
  now?: () => number;
  store?: AnswerStore<Res>;
  check?: AnswerCheck<NoInfer<Req>, NoInfer<Res>>;
}): CoalescingQueue<Req, Res> {
  return new CoalescingQueue<Req, Res>({
    maxBatch: 1,
    keyOf: options.keyOf,
    expiresAt: options.expiresAt,
    now: options.now,
    store: options.store,
    check: options.check,
    batch: async ([request], signal) => {
      try {
        return [{ ok: true, value: await options.call(request!, signal) }];
      } catch (err) {
        return [{ ok: false, error: err instanceof Error ? err : new Error(String(err)) }];
      }
    },
  });
}

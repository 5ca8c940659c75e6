import { AbortedError } from './errors';

/** A caller waiting for a slot, as handed back by WaiterQueue.drain(). */
export interface Waiting<T> {
  resolve(value: T): void;
  reject(e: unknown): void;
  signal?: AbortSignal;
}

interface Waiter<T> extends Waiting<T> {
  onAbort?: () => void;
}

/**
 * The callers waiting for a rate gate's next slot, first come first served. A caller whose
 * signal aborts leaves the queue at once with an AbortedError; one that is served or handed
 * on no longer listens to its signal. Used by the in-process RateGate and the Redis gate.
 */
export class WaiterQueue<T> {
  private readonly waiters: Waiter<T>[] = [];

  get length(): number {
    return this.waiters.length;
  }

  /** Queues a caller; the promise settles when it is served, rejected or its signal aborts. */
  wait(signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError());
      const w: Waiter<T> = { resolve, reject, signal };
      if (signal) {
        w.onAbort = () => {
          const i = this.waiters.indexOf(w);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(abortError());
        };
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      this.waiters.push(w);
    });
  }

  /** Serves the longest-waiting caller; false when nobody waits (the caller gives the slot back). */
  resolveNext(value: T): boolean {
    const w = this.waiters.shift();
    if (!w) return false;
    release(w).resolve(value);
    return true;
  }

  /** Fails every waiting caller with the same error (the day's budget is spent). */
  rejectAll(e: unknown): void {
    for (const w of this.drain()) w.reject(e);
  }

  /** Empties the queue, handing the callers on (their signals no longer watched here). */
  drain(): Waiting<T>[] {
    return this.waiters.splice(0).map(release);
  }
}

function release<T>(w: Waiter<T>): Waiter<T> {
  if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
  return w;
}

export function abortError(): AbortedError {
  return new AbortedError({ status: 0, type: 'aborted', message: 'The request was cancelled before it was sent.' });
}

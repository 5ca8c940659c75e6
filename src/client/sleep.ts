import { AbortedError } from './errors';

/** Waits `ms`, or rejects with AbortedError as soon as the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError(undefined, signal.reason));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(undefined, signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Waits for a shared promise without letting one caller's abort cancel it for the others. */
export function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** `cause` is what the abort carried (the signal's reason, or the fetch's AbortError). */
export function abortedError(operation?: string, cause?: unknown): AbortedError {
  return new AbortedError({ status: 0, type: 'aborted', message: 'The request was cancelled.', operation, cause });
}

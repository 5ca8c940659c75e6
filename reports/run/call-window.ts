import { AbortedError, type Pacing } from '../../src/client';

const cancelled = () => new AbortedError({ status: 0, type: 'aborted', message: 'The request was cancelled.' });

/** Most calls the job keeps in flight when it sizes the window itself (a service may limit connections too). */
export const MAX_AUTO_WINDOW = 32;
/**
 * Until the round trip is known from WARM_SAMPLES answered calls: at least this many. The first
 * timed call is the cheap budget check, a few ms even where a batch takes hundreds; a window sized
 * from it alone held the first second of a 1-s-window run at a third of the pace.
 */
export const INITIAL_WINDOW = 8;
export const WARM_SAMPLES = 8;
/**
 * In flight beyond Little's law: round trips vary (150–250 ms is a 1.7× spread), a slot is also
 * held while a chunk is journaled, a bulk run keeps the slots it was granted even when the
 * round trip grows later, and a call waiting at the gate costs nothing.
 */
const HEADROOM = 2;
const SPARE = 2;

/**
 * Calls in flight needed to keep the account's pace whatever the service's latency, by
 * Little's law: in flight = arrival rate × time in the system (calls per ms × round-trip ms),
 * with headroom and two more so a slow answer never leaves a slot unused; capped.
 */
export function windowFor(pacing: Pacing, cap = MAX_AUTO_WINDOW): number {
  if (pacing.callsPerMs === undefined || pacing.roundTripMs === undefined) return Math.min(INITIAL_WINDOW, cap);
  const littles = Math.ceil(pacing.callsPerMs * pacing.roundTripMs * HEADROOM) + SPARE;
  // A window too large only queues calls at the gate; one too small leaves the pace unused.
  const floor = pacing.samples < WARM_SAMPLES ? INITIAL_WINDOW : 1;
  return Math.min(cap, Math.max(floor, littles));
}

interface Waiter {
  want: number;
  grant(n: number): void;
  fail(e: unknown): void;
}

/**
 * The job's bound on calls in flight, shared by every portfolio of the run: batch chunks,
 * score chunks and enrichment calls all hold a slot while they wait at the rate gate and while
 * they are answered. It bounds, the gate paces: the window never decides when a call leaves,
 * it only keeps enough of them queued at the gate that the gate never waits for the job.
 *
 * A bulk run takes several slots at once (its chunks in flight) and gives them back as its
 * last chunks land; waiters are served in order, so a large portfolio cannot starve the rest.
 * The size follows the client's observed pace and round trip (`resize`), unless fixed.
 */
export class CallWindow {
  private used = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    private limit: number,
    /** Re-reads the size after each call (Little's law on the client's observations); absent: fixed. */
    private readonly sizer?: () => number,
  ) {}

  /** A window of `n` (the --concurrency flag), or one that sizes itself from the client's pacing. */
  static of(fixed: number | undefined, pacing: () => Pacing): CallWindow {
    if (fixed !== undefined) return new CallWindow(fixed);
    const sizer = () => windowFor(pacing());
    return new CallWindow(sizer(), sizer);
  }

  get size(): number {
    return this.limit;
  }

  get inUse(): number {
    return this.used;
  }

  /** Up to `want` slots (at least one, at most the window): resolves with how many were granted. */
  acquire(want: number, signal?: AbortSignal): Promise<number> {
    if (signal?.aborted) return Promise.reject(cancelled());
    return new Promise<number>((resolve, reject) => {
      const onAbort = () => {
        const k = this.waiting.indexOf(waiter);
        if (k >= 0) this.waiting.splice(k, 1);
        reject(cancelled());
      };
      const waiter: Waiter = {
        want: Math.max(1, want),
        grant: (n) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(n);
        },
        fail: reject,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
      this.pump();
    });
  }

  release(n: number): void {
    this.used -= n;
    if (this.sizer) this.limit = this.sizer();
    this.pump();
  }

  /** One call holding one slot. */
  async run<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const n = await this.acquire(1, signal);
    try {
      return await call();
    } finally {
      this.release(n);
    }
  }

  private pump(): void {
    for (;;) {
      const head = this.waiting[0];
      if (!head) return;
      const free = this.limit - this.used;
      const n = Math.min(head.want, this.limit);
      // A large request waits for room rather than taking a sliver; it gets at least what fits when the window is empty.
      if (free < n && !(this.used === 0 && free > 0)) return;
      const granted = Math.min(n, free);
      this.waiting.shift();
      this.used += granted;
      head.grant(granted);
    }
  }
}

import type { Outcome } from './outcome';

type Listener<T> = (result: Outcome<T>) => void;

/**
 * One schedule for every streaming cell: however many cells show alerts, the service is
 * asked once per interval (the shortest any cell asked for). Stops when the last cell goes.
 */
export class Poller<T> {
  private readonly listeners = new Map<Listener<T>, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private intervalMs = Infinity;
  private last: Outcome<T> | undefined;
  private inFlight: Promise<void> | undefined;
  polls = 0;

  constructor(private readonly fetch: () => Promise<T>) {}

  subscribe(intervalMs: number, listener: Listener<T>): () => void {
    this.listeners.set(listener, intervalMs);
    if (this.last) listener(this.last);
    if (intervalMs < this.intervalMs || this.timer === undefined) {
      this.intervalMs = Math.min(intervalMs, this.intervalMs);
      if (!this.last && !this.inFlight) void this.poll();
      else this.schedule();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
      else this.intervalMs = Math.min(...this.listeners.values());
    };
  }

  /** The latest answer while anyone is subscribed (a formula preview shows it without a call). */
  get latest(): Outcome<T> | undefined {
    return this.last;
  }

  /** Asks again now (the task pane's Refresh). */
  refreshNow(): Promise<void> {
    return this.listeners.size > 0 ? this.poll() : Promise.resolve();
  }

  private stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.intervalMs = Infinity;
    this.last = undefined;
  }

  private schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.listeners.size === 0 || !Number.isFinite(this.intervalMs)) return;
    this.timer = setTimeout(() => void this.poll(), this.intervalMs);
  }

  private poll(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    this.polls++;
    this.inFlight = this.fetch()
      .then(
        (value): Outcome<T> => ({ ok: true, value }),
        (err): Outcome<T> => ({ ok: false, error: err instanceof Error ? err : new Error(String(err)) }),
      )
      .then((result) => {
        this.inFlight = undefined;
        if (this.listeners.size === 0) return;
        this.last = result;
        for (const l of [...this.listeners.keys()]) l(result);
        this.schedule();
      });
    return this.inFlight;
  }
}

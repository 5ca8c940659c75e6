/** Allows an action at most once per interval, for everyone together; `now` is injectable for tests. */
export class IntervalLimit {
  private last = -Infinity;

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** 0 when the action may go now (and it is counted), else the milliseconds until it may. */
  take(): number {
    const t = this.now();
    const wait = this.last + this.intervalMs - t;
    if (wait > 0) return wait;
    this.last = t;
    return 0;
  }
}

/**
 * Per-user limits on the routes that cost everyone (docs/security.md, "Limits"): a user may clear
 * the shared cache at most once per refresh interval, and ask the status at most `statusPerWindow`
 * times per window. `now` is injectable for tests. Users idle for a day are forgotten.
 */
export class UserLimits {
  private readonly lastRefresh = new Map<string, number>();
  private readonly statusCounts = new Map<string, { window: number; count: number }>();

  constructor(
    private readonly refreshIntervalMs: number,
    private readonly statusPerWindow: number,
    private readonly statusWindowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** 0 when this user may clear the cache now (and it is counted), else the milliseconds until they may. */
  takeRefresh(userId: string): number {
    const t = this.now();
    this.forgetIdle(t);
    const wait = (this.lastRefresh.get(userId) ?? -Infinity) + this.refreshIntervalMs - t;
    if (wait > 0) return wait;
    this.lastRefresh.set(userId, t);
    return 0;
  }

  /** 0 when this user may ask the status now (and it is counted), else the milliseconds until the next window. */
  takeStatus(userId: string): number {
    const t = this.now();
    const window = Math.floor(t / this.statusWindowMs);
    const c = this.statusCounts.get(userId);
    if (!c || c.window !== window) {
      this.statusCounts.set(userId, { window, count: 1 });
      return 0;
    }
    if (c.count >= this.statusPerWindow) return (window + 1) * this.statusWindowMs - t;
    c.count++;
    return 0;
  }

  private forgetIdle(t: number): void {
    if (this.lastRefresh.size < 10_000) return;
    for (const [user, at] of this.lastRefresh) if (t - at > 86_400_000) this.lastRefresh.delete(user);
    for (const [user, c] of this.statusCounts) if (c.window < Math.floor(t / this.statusWindowMs) - 1) this.statusCounts.delete(user);
  }
}

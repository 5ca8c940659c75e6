/**
 * Answers kept until their own expiry time (a valuation's valid_until), evicting the oldest
 * beyond a cap. With `keepExpiredMs`, an answer past its expiry is no longer served but is
 * still remembered that long as the last known answer (what a cell may show, marked stale,
 * while the service cannot be reached).
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number; receivedAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 50_000,
    private readonly keepExpiredMs = 0,
  ) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt <= this.now()) {
      if (!this.remembered(hit.expiresAt)) this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  /** The answer last stored for `key`, valid or not, while it is remembered. */
  lastKnown(key: string): { value: V; expiresAt: number } | undefined {
    const hit = this.entries.get(key);
    return hit && this.remembered(hit.expiresAt) ? hit : undefined;
  }

  /** `receivedAt`: when the service gave the answer (kept with it, so a stored answer's expiry can be recomputed on read). */
  set(key: string, value: V, expiresAt: number, receivedAt = this.now()): void {
    if (!this.remembered(expiresAt)) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt, receivedAt });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /** Every entry still remembered, oldest first: what is kept on the machine. */
  snapshot(): [string, V, number, number][] {
    return [...this.entries].filter(([, e]) => this.remembered(e.expiresAt)).map(([k, e]) => [k, e.value, e.expiresAt, e.receivedAt]);
  }

  /** Forgets one answer (a kept one that does not fit the request it is kept under). */
  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private remembered(expiresAt: number): boolean {
    return expiresAt + this.keepExpiredMs > this.now();
  }
}

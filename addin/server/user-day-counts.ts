import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RedisFallback } from './redis-fallback';

/**
 * Upstream calls each user has caused in one day window (the account's day), for the per-user
 * daily cap. One host counts in memory; replicas sharing Redis count there, so a user's share
 * is one share however many replicas serve them.
 */
export interface UserDayCounts {
  /** Calls `user` caused in day window `day`. */
  get(user: string, day: number): Promise<number>;
  /** Counts one more call; resolves to the new count. */
  add(user: string, day: number): Promise<number>;
  /** Takes one back (a call counted past the cap, or whose caller left before it was made). */
  remove(user: string, day: number): Promise<void>;
}

/** In this process only: the day window's counts, forgotten when the window changes. */
export class LocalUserDayCounts implements UserDayCounts {
  private day = -1;
  private readonly counts = new Map<string, number>();

  get(user: string, day: number): Promise<number> {
    return Promise.resolve(this.window(day).get(user) ?? 0);
  }

  add(user: string, day: number): Promise<number> {
    const counts = this.window(day);
    const n = (counts.get(user) ?? 0) + 1;
    counts.set(user, n);
    return Promise.resolve(n);
  }

  remove(user: string, day: number): Promise<void> {
    const counts = this.window(day);
    counts.set(user, Math.max(0, (counts.get(user) ?? 0) - 1));
    return Promise.resolve();
  }

  private window(day: number): Map<string, number> {
    if (day !== this.day) {
      this.day = day;
      this.counts.clear();
    }
    return this.counts;
  }
}

/**
 * The counts in Redis, one key per user and day window under the account's prefix (the user id
 * hashed: no object id or address in Redis key names), expiring a while after the window. When
 * Redis is unreachable the host counts in memory until it is back (and says so once): a user may
 * then get up to one share per replica, never an unbounded amount.
 */
export class RedisUserDayCounts implements UserDayCounts {
  private readonly prefix: string;
  private readonly local = new LocalUserDayCounts();
  private readonly fallback: RedisFallback;

  constructor(
    private readonly redis: Redis,
    /** The service account: baseUrl#clientId. */
    account: string,
    private readonly dayMs: number,
    log: (line: string) => void,
  ) {
    this.prefix = `svc:user-day:{${account}}:`;
    this.fallback = new RedisFallback(log, "this host counts users' daily shares alone until it is back.", "users' daily shares are counted across the replicas again.");
  }

  get(user: string, day: number): Promise<number> {
    return this.safely(async () => Number((await this.redis.get(this.key(user, day))) ?? 0), () => this.local.get(user, day));
  }

  add(user: string, day: number): Promise<number> {
    const key = this.key(user, day);
    return this.safely(async () => {
      const replies = await this.redis.multi().incr(key).pexpire(key, this.dayMs + 3_600_000).exec();
      const [err, n] = replies?.[0] ?? [new Error('the transaction was discarded'), 0];
      if (err) throw err;
      return Number(n);
    }, () => this.local.add(user, day));
  }

  remove(user: string, day: number): Promise<void> {
    return this.safely(async () => void (await this.redis.decr(this.key(user, day))), () => this.local.remove(user, day));
  }

  private key(user: string, day: number): string {
    return `${this.prefix}${day}:${createHash('sha256').update(user).digest('base64url')}`;
  }

  private safely<T>(op: () => Promise<T>, otherwise: () => Promise<T>): Promise<T> {
    return this.fallback.run(op, otherwise);
  }
}

import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RedisFallback } from './redis-fallback';

/**
 * The answers several host replicas share (SVC_REDIS_URL): what one replica paid for, the
 * others answer from. Every operation degrades to "not shared" when Redis is away: a miss, a
 * claim granted, a write dropped. The host then pays for what it would have paid for alone.
 */
export interface SharedAnswers {
  getMany(keys: readonly string[]): Promise<(unknown | undefined)[]>;
  set(key: string, value: unknown, expiresAt: number): Promise<void>;
  /**
   * Coalescing across replicas: true when this replica should call upstream for `key`, false
   * when another replica is calling already (then waitFor). The claim lapses after `ms`.
   */
  claim(key: string, ms: number): Promise<boolean>;
  /** The answer another replica is fetching, once it lands; undefined when it does not within `ms`. */
  waitFor(key: string, ms: number): Promise<unknown | undefined>;
  /** A failed fetch gives its claim back, so waiting replicas call upstream themselves. */
  release(key: string): Promise<void>;
  clear(): Promise<void>;
}

const POLL_MS = 25;

/** SharedAnswers in Redis: one key per answer (JSON, expiring at the answer's own validity), under one prefix per service account. */
export class RedisAnswers implements SharedAnswers {
  private readonly prefix: string;
  private readonly owner = randomUUID();
  private readonly fallback: RedisFallback;

  constructor(
    private readonly redis: Redis,
    /** The service account the answers came from: baseUrl#clientId. */
    account: string,
    log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.prefix = `svc:answers:{${account}}:`;
    this.fallback = new RedisFallback(log, 'this host answers from its own cache only until it is back (replicas may pay for the same valuation).', 'the host shares its answers with the other replicas again.');
  }

  async getMany(keys: readonly string[]): Promise<(unknown | undefined)[]> {
    if (keys.length === 0) return [];
    const raw = await this.safely(() => this.redis.mget(...keys.map((k) => this.key(k))), [] as (string | null)[]);
    return keys.map((_, i) => parse(raw[i]));
  }

  async set(key: string, value: unknown, expiresAt: number): Promise<void> {
    const ttl = Math.floor(expiresAt - this.now());
    if (ttl <= 0) return;
    await this.safely(async () => {
      await this.redis.set(this.key(key), JSON.stringify(value), 'PX', ttl);
      await this.redis.del(this.lock(key));
    }, undefined);
  }

  async claim(key: string, ms: number): Promise<boolean> {
    return this.safely(async () => (await this.redis.set(this.lock(key), this.owner, 'PX', ms, 'NX')) === 'OK', true);
  }

  async waitFor(key: string, ms: number): Promise<unknown | undefined> {
    const until = this.now() + ms;
    while (this.now() < until) {
      const [value] = await this.getMany([key]);
      if (value !== undefined) return value;
      // The replica that claimed it gave up (its call failed, or it died): stop waiting.
      const locked = await this.safely(async () => (await this.redis.exists(this.lock(key))) === 1, false);
      if (!locked) return undefined;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    return undefined;
  }

  async release(key: string): Promise<void> {
    await this.safely(() => this.redis.del(this.lock(key)), 0);
  }

  async clear(): Promise<void> {
    await this.safely(async () => {
      let cursor = '0';
      do {
        const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}*`, 'COUNT', 500);
        if (keys.length > 0) await this.redis.unlink(...keys);
        cursor = next;
      } while (cursor !== '0');
    }, undefined);
  }

  private key(k: string): string {
    return `${this.prefix}a:${digest(k)}`;
  }

  private lock(k: string): string {
    return `${this.prefix}l:${digest(k)}`;
  }

  private safely<T>(op: () => Promise<T>, otherwise: T): Promise<T> {
    return this.fallback.run(op, () => otherwise);
  }
}

function digest(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

function parse(raw: string | null | undefined): unknown {
  if (raw === null || raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

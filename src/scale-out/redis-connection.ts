import { Redis, type RedisOptions } from 'ioredis';
import { scrubUrl, urlAddress } from '../redact-url';

/** Refused at once: a URL that is not redis:// or rediss://. */
export class RedisConfigError extends Error {}

/** The Redis address as it may be printed: no password, no user name. */
export function describeRedisUrl(url: string): string {
  // The one redaction (src/redact-url.ts): a password with / @ # or any other character never shows.
  return urlAddress(url).replace(/\/$/, '');
}

export function checkRedisUrl(url: string, field: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new RedisConfigError(`${field} must be a Redis URL such as redis://127.0.0.1:6379 (got something that is not a URL)`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new RedisConfigError(`${field} must start with redis:// or rediss:// (got ${u.protocol}//)`);
  }
}

export interface OpenRedisOptions {
  /** Shown in Redis's CLIENT LIST, so an operator can tell the processes apart. */
  name: string;
  /** How long the first connection may take before the command gives up (default 5 s). */
  connectTimeoutMs?: number;
  /** How long one command may take (default 2 s): past it the caller treats Redis as gone. */
  commandTimeoutMs?: number;
}

/**
 * A connection for the rate gate and the caches: commands fail fast while Redis is away
 * (no offline queue, a command timeout) so the caller can fall back instead of hanging, and
 * the connection keeps trying to come back in the background.
 */
export async function openRedis(url: string, opts: OpenRedisOptions): Promise<Redis> {
  checkRedisUrl(url, 'the Redis URL');
  const redis = new Redis(url, redisOptions(opts));
  let lastError: Error | undefined;
  // Without a listener ioredis prints every reconnection failure itself.
  redis.on('error', (e: Error) => {
    lastError = e;
  });
  try {
    await withTimeout(redis.connect(), opts.connectTimeoutMs ?? 5000);
    return redis;
  } catch (e) {
    redis.disconnect();
    const why = scrubUrl((lastError ?? (e as Error)).message, url);
    throw new Error(`Redis at ${describeRedisUrl(url)} is not reachable (${why}); start it, or leave SVC_REDIS_URL / --redis out to run in one process.`);
  }
}

function redisOptions(opts: OpenRedisOptions): RedisOptions {
  return {
    lazyConnect: true,
    connectionName: opts.name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: opts.commandTimeoutMs ?? 2000,
    connectTimeout: opts.connectTimeoutMs ?? 5000,
    retryStrategy: (times) => Math.min(200 * times, 2000),
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

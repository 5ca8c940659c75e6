/**
 * Past one machine (Node only, never in the browser bundle): the account's rate gate and the
 * answer cache kept in Redis. See docs/scale-out.md.
 */
import type { Redis } from 'ioredis';
import { accountKey, type GateLimits } from '../client';
import { describeRedisUrl, openRedis } from './redis-connection';
import { RedisRateGate } from './redis-gate';

export { RedisRateGate, type RedisGateOptions } from './redis-gate';
export { openRedis, describeRedisUrl, checkRedisUrl, RedisConfigError } from './redis-connection';

/** The environment variable naming the Redis every process of a deployment shares. */
export const REDIS_URL_ENV = 'SVC_REDIS_URL';

export interface SharedGateOptions {
  redisUrl: string;
  baseUrl: string;
  clientId: string | undefined;
  limits: GateLimits;
  log: (line: string) => void;
  /** Shown in Redis's CLIENT LIST (e.g. svc-report-worker). */
  processName: string;
}

export interface SharedGate {
  gate: RedisRateGate;
  redis: Redis;
  close(): Promise<void>;
}

/** Connects to Redis and joins the account's shared budget; fails with a clear message when Redis cannot be reached. */
export async function openSharedGate(o: SharedGateOptions): Promise<SharedGate> {
  const redis = await openRedis(o.redisUrl, { name: o.processName });
  const gate = await RedisRateGate.open({ redis, account: accountKey(o.baseUrl.replace(/\/+$/, ''), o.clientId), limits: o.limits, log: o.log, redisLabel: describeRedisUrl(o.redisUrl) });
  return {
    gate,
    redis,
    close: async () => {
      await gate.close();
      redis.disconnect();
    },
  };
}

import { accountKey } from '../../src/client';
import { describeRedisUrl, openSharedGate } from '../../src/scale-out';
import type { AccountGate } from '../../src/client';
import { RedisAnswers, type SharedAnswers } from './redis-cache';
import { RedisUserDayCounts, type UserDayCounts } from './user-day-counts';
import type { ServiceTarget } from './service-target';

export interface SharedAccount {
  gate: AccountGate;
  answers: SharedAnswers;
  /** Each user's calls of the day, counted across the replicas (the per-user daily cap). */
  userCounts: UserDayCounts;
  /** Readiness asks it to answer a PING. */
  redis: { ping(): Promise<unknown>; label: string };
  close(): Promise<void>;
}

/** One replica's view of the account it shares with the others through Redis: the rate gate, the answers and users' daily counts. */
export async function openSharedAccount(redisUrl: string, service: ServiceTarget, log: (line: string) => void): Promise<SharedAccount> {
  const limits = { minuteMs: service.limits?.minuteMs ?? 60_000, dayMs: service.limits?.dayMs ?? 86_400_000 };
  const account = accountKey(service.baseUrl.replace(/\/+$/, ''), service.clientId);
  const shared = await openSharedGate({ redisUrl, baseUrl: service.baseUrl, clientId: service.clientId, limits, log, processName: 'addin-host' });
  return {
    gate: shared.gate,
    answers: new RedisAnswers(shared.redis, account, log),
    userCounts: new RedisUserDayCounts(shared.redis, account, limits.dayMs, log),
    redis: { ping: () => shared.redis.ping(), label: describeRedisUrl(redisUrl) },
    close: shared.close,
  };
}

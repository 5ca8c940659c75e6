import { accountKey } from '../../src/client';
import { describeRedisUrl, openSharedGate } from '../../src/scale-out';
import type { AccountGate } from '../../src/client';
import { RedisAnswers, type SharedAnswers } from './redis-cache';
import type { ServiceTarget } from './service-target';

export interface SharedAccount {
  gate: AccountGate;
  answers: SharedAnswers;
  /** Readiness asks it to answer a PING. */
  redis: { ping(): Promise<unknown>; label: string };
  close(): Promise<void>;
}

/** One replica's view of the account it shares with the others through Redis: the rate gate and the answers. */
export async function openSharedAccount(redisUrl: string, service: ServiceTarget, log: (line: string) => void): Promise<SharedAccount> {
  const limits = { minuteMs: service.limits?.minuteMs ?? 60_000, dayMs: service.limits?.dayMs ?? 86_400_000 };
  const shared = await openSharedGate({ redisUrl, baseUrl: service.baseUrl, clientId: service.clientId, limits, log, processName: 'addin-host' });
  return {
    gate: shared.gate,
    answers: new RedisAnswers(shared.redis, accountKey(service.baseUrl.replace(/\/+$/, ''), service.clientId), log),
    redis: { ping: () => shared.redis.ping(), label: describeRedisUrl(redisUrl) },
    close: shared.close,
  };
}

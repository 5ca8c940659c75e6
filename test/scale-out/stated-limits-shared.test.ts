import { afterEach, describe, expect, it } from 'vitest';
import { startRedis, type RedisProcess } from '../../fixtures/redis-server';
import { openSharedGate, type SharedGate } from '../../src/scale-out';

/**
 * The Redis gate keeps the service's stated limits for every process of the account: what one
 * process heard (X-RateLimit-Limit above the tier's figure, or lowered) governs the others.
 */
let redis: RedisProcess | undefined;
const gates: SharedGate[] = [];
afterEach(async () => {
  await Promise.all(gates.splice(0).map((g) => g.close()));
  await redis?.stop();
  redis = undefined;
});

async function gate(account: string, limits: { perMinute?: number; perDay?: number; ceilingPerMinute?: number }) {
  const g = await openSharedGate({ redisUrl: redis!.url, baseUrl: 'http://127.0.0.1:1/v1', clientId: account, limits: { minuteMs: 60_000, dayMs: 86_400_000, ...limits }, log: () => undefined, processName: 'test' });
  gates.push(g);
  return g.gate;
}

describe('shared gate: stated limits', () => {
  it("one process hears 3,000 from the service: another expecting the tier's 1,000 paces at 3,000 after its next grant", async () => {
    redis = await startRedis();
    const a = await gate('ent', { perMinute: 1000, perDay: 500_000 });
    const b = await gate('ent', { perMinute: 1000, perDay: 500_000 });
    expect(b.status().minuteLimitSource).toBe('tier');
    const p = await a.acquire();
    a.observe(p, { minuteLimit: 3000, minuteRemaining: 2999, minuteResetAt: Date.now() + 60_000, dayLimit: 2_000_000 });
    // Redis runs one connection's commands in order: once a's next grant is back, its observation
    // is in Redis, and b learns it from the reply to its own next grant.
    a.unused(await a.acquire());
    b.unused(await b.acquire());
    const s = b.status();
    expect([s.minuteLimit, s.minuteLimitSource, s.dayLimit, s.dayLimitSource]).toEqual([3000, 'service', 2_000_000, 'service']);
    expect(b.callsPerMs! * 60_000).toBeGreaterThan(2900);
  });

  it('a lowered limit reaches every process; a ceiling of its own still holds', async () => {
    redis = await startRedis();
    const a = await gate('shrinks', { perMinute: 1000 });
    const capped = await gate('shrinks', { perMinute: 1000, ceilingPerMinute: 100 });
    const p = await a.acquire();
    a.observe(p, { minuteLimit: 400, minuteRemaining: 399, minuteResetAt: Date.now() + 60_000 });
    a.unused(await a.acquire());
    capped.unused(await capped.acquire());
    expect([capped.status().minuteLimit, capped.status().minuteLimitSource]).toEqual([100, 'ceiling']);
    a.observe(undefined, { minuteLimit: 50 });
    a.unused(await a.acquire());
    capped.unused(await capped.acquire());
    expect([capped.status().minuteLimit, capped.status().minuteLimitSource]).toEqual([50, 'service']);
  });

  it("on its local share while Redis is away, the limits it reports are still the account's", async () => {
    redis = await startRedis();
    const a = await gate('away', { perMinute: 1000 });
    const p = await a.acquire();
    a.observe(p, { minuteLimit: 400, dayLimit: 90_000, minuteRemaining: 399, minuteResetAt: Date.now() + 60_000 });
    a.unused(await a.acquire());
    await redis.stop();
    redis = undefined;
    a.unused(await a.acquire());
    const s = a.status();
    expect([s.minuteLimit, s.minuteLimitSource, s.dayLimit, s.dayLimitSource]).toEqual([400, 'service', 90_000, 'service']);
    // It paces on its share meanwhile: half the account's minute, at most.
    expect(a.callsPerMs! * 60_000).toBeLessThanOrEqual(200);
  });
});

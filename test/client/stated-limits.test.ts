import { afterEach, describe, expect, it } from 'vitest';
import { AccountLimit, RateGate, describeLimits } from '../../src/client';
import { apiCalls, clientFor, count, readLog, start, type Sandbox } from './helpers';

/**
 * The service's stated limits (X-RateLimit-Limit and -Day) are the account's: the tier only
 * says what to expect until the first answer (Enterprise limits are custom, above or below the
 * published figure), and a ceiling of the caller's own is never exceeded.
 */

describe('AccountLimit: which limit is in force', () => {
  it("the tier's figure until the service states one, then the service's, above or below", () => {
    const l = new AccountLimit(1000, undefined);
    expect([l.value, l.source]).toEqual([1000, 'tier']);
    l.state(3000);
    expect([l.value, l.source]).toEqual([3000, 'service']);
    l.state(600);
    expect([l.value, l.source]).toEqual([600, 'service']);
    l.state(undefined);
    l.state(0);
    expect(l.value).toBe(600);
  });

  it('a ceiling of your own is never exceeded; a stricter tier from another client does not override the service', () => {
    const l = new AccountLimit(1000, 2000);
    l.state(3000);
    expect([l.value, l.source]).toEqual([2000, 'ceiling']);
    l.tighten(60, undefined);
    expect(l.value).toBe(2000);
    const open = new AccountLimit(undefined, undefined);
    expect([open.value, open.source]).toEqual([undefined, undefined]);
  });
});

describe('RateGate follows the stated limits', () => {
  it("paces at the service's 3,000 although the tier says 1,000, and says where the limit came from", () => {
    const gate = new RateGate({ perMinute: 1000, perDay: 500_000, minuteMs: 60_000, dayMs: 86_400_000, marginMs: 0 });
    expect(gate.status().minuteLimitSource).toBe('tier');
    expect(gate.callsPerMs).toBeCloseTo(1000 / 60_000);
    gate.observe(undefined, { minuteLimit: 3000, dayLimit: 2_000_000 });
    expect(gate.callsPerMs).toBeCloseTo(3000 / 60_000);
    const s = gate.status();
    expect([s.minuteLimit, s.minuteLimitSource, s.dayLimit, s.dayLimitSource]).toEqual([3000, 'service', 2_000_000, 'service']);
    expect(describeLimits(s)).toBe('3,000 a minute and 2,000,000 a day, as the service states them for this account');
  });

  it('describes a tier expectation, a ceiling and nothing known', () => {
    const tier = new RateGate({ perMinute: 1000, perDay: 500_000, minuteMs: 60_000, dayMs: 86_400_000 });
    expect(describeLimits(tier.status())).toBe("1,000 a minute and 500,000 a day, the tier's published limits, used until the service states the account's own");
    const capped = new RateGate({ ceilingPerMinute: 500, minuteMs: 60_000, dayMs: 86_400_000 });
    capped.observe(undefined, { minuteLimit: 3000, dayLimit: 900_000 });
    expect(describeLimits(capped.status())).toBe('500 a minute, a ceiling set in this configuration, below what the account allows; 900,000 a day, as the service states them for this account');
    expect(describeLimits(new RateGate({ minuteMs: 60_000, dayMs: 86_400_000 }).status())).toBe('not known yet: the service states them on its first answer');
  });
});

describe('against the sandbox', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => {
    await sb?.close();
    sb = undefined;
  });

  it("an account above its tier's figure is paced at its own limit", async () => {
    sb = await start({ minuteMs: 1000, accounts: [{ client_id: 'big', client_secret: 'big-secret', tier: 'starter', per_minute: 240, per_day: 90_000 }] });
    const c = clientFor(sb, 'big', { tier: 'starter', limits: { minuteMs: 1000 } });
    expect(c.rateLimitStatus().minuteLimit).toBe(60);
    await c.segments.list();
    const s = c.rateLimitStatus();
    expect([s.minuteLimit, s.minuteLimitSource, s.dayLimit]).toEqual([240, 'service', 90_000]);
    expect(c.pacing().callsPerMs).toBeGreaterThan(200 / 1000);
  });

  it('a limit lowered mid-run is followed at once: every call answered, no 429', async () => {
    // 200 a 2-s window, lowered to 60 after 40 calls: the window holds about 40 then, and the
    // 160 calls left would overrun 60 within it unless the client follows the new limit.
    sb = await start({ minuteMs: 2000, accounts: [{ client_id: 'shrinks', client_secret: 'shrinks-secret', tier: 'enterprise', per_minute: 200 }] });
    const c = clientFor(sb, 'shrinks', { tier: 'enterprise', limits: { minuteMs: 2000, marginMs: 100 } });
    let done = 0;
    const one = async () => {
      await c.segments.list();
      if (++done === 40) sb!.setLimits('shrinks', { perMinute: 60 });
    };
    const workers = Array.from({ length: 4 }, async () => {
      while (done < 200) await one();
    });
    await Promise.all(workers);
    const log = apiCalls(await readLog(sb));
    expect(count(log, (l) => l.status === 429)).toBe(0);
    expect(count(log, (l) => l.status === 200)).toBeGreaterThanOrEqual(200);
    expect(c.rateLimitStatus().minuteLimit).toBe(60);
  }, 30_000);

  it('a limit raised mid-run is used from the next answer', async () => {
    sb = await start({ minuteMs: 1000, accounts: [{ client_id: 'grows', client_secret: 'grows-secret', tier: 'pro', per_minute: 30 }] });
    const c = clientFor(sb, 'grows', { tier: 'pro', limits: { minuteMs: 1000 } });
    await c.segments.list();
    expect(c.rateLimitStatus().minuteLimit).toBe(30);
    sb.setLimits('grows', { perMinute: 600 });
    await c.segments.list();
    expect(c.rateLimitStatus().minuteLimit).toBe(600);
    expect(c.pacing().callsPerMs).toBeGreaterThan(500 / 1000);
  });
});

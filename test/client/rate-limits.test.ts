import { afterEach, describe, expect, it } from 'vitest';
import { DailyLimitExhaustedError, parseResetHeader } from '../../src/client';
import { apiCalls, clientFor, count, readLog, start, valuedItems, watches, type Sandbox } from './helpers';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/** Starter limits with a one-second "minute": 60 requests a second, 3,000 assets a second through batches. */
const FAST_STARTER = { minuteMs: 1000 };

describe('pacing to the account budget', () => {
  it('a client told its tier receives no 429 in steady state', async () => {
    sb = await start({ ...FAST_STARTER });
    const c = clientFor(sb, 'demo-starter', { tier: 'starter', limits: { minuteMs: 1000 } });
    const out = await c.valueAll(watches(7_500));
    expect(out.every((o) => o.ok)).toBe(true);
    const log = apiCalls(await readLog(sb));
    expect(count(log, (l) => l.status === 429)).toBe(0);
    expect(valuedItems(log)).toBe(7_500);
  });

  it('every client of one account in the process shares one gate: three clients, no 429', async () => {
    sb = await start({ ...FAST_STARTER });
    const clients = [1, 2, 3].map(() => clientFor(sb!, 'demo-starter', { tier: 'starter', limits: { minuteMs: 1000 } }));
    const outs = await Promise.all(clients.map((c, i) => c.valueAll(watches(1_000, `C${i}-`))));
    expect(outs.flat().every((o) => o.ok)).toBe(true);
    expect(count(apiCalls(await readLog(sb)), (l) => l.status === 429)).toBe(0);
  });

  it('a 429 storm (three processes on one account, each thinking it owns the budget): all valued once, no hammering', async () => {
    sb = await start({ ...FAST_STARTER });
    // Separate gate keys stand in for separate processes.
    const clients = [1, 2, 3].map((i) => clientFor(sb!, 'demo-starter', { tier: 'starter', limits: { minuteMs: 1000 }, rateLimitKey: `process-${i}` }));
    const outs = await Promise.all(clients.map((c, i) => c.valueAll(watches(1_000, `P${i}-`))));
    expect(outs.flat().every((o) => o.ok)).toBe(true);
    const log = apiCalls(await readLog(sb));
    expect(valuedItems(log)).toBe(3_000);
    const refused = count(log, (l) => l.status === 429);
    // Each refusal parks its client until the window resets (and Remaining headers stop most
    // before they happen): a handful per window the service saw requests in, not a flood.
    const windows = new Set(log.map((l) => Math.floor(Date.parse(l.t) / 1000))).size;
    expect(refused).toBeLessThanOrEqual(windows * 3 * 4);
  });

  it('corrects itself from X-RateLimit-* when configured for more than the account has', async () => {
    sb = await start({ ...FAST_STARTER, accounts: [{ client_id: 'small', client_secret: 'small-secret', tier: 'pro', per_minute: 30 }] });
    const c = clientFor(sb, 'small', { tier: 'pro', limits: { minuteMs: 1000 } });
    const out = await c.valueAll(watches(2_000));
    expect(out.every((o) => o.ok)).toBe(true);
    expect(c.rateLimitStatus().minuteLimit).toBe(30);
    expect(count(apiCalls(await readLog(sb)), (l) => l.status === 429)).toBeLessThanOrEqual(2);
  });

  it('learns the limits from the headers when told none', async () => {
    sb = await start({ ...FAST_STARTER });
    const c = clientFor(sb, 'demo-starter', { limits: { minuteMs: 1000 } });
    const before = Date.now();
    await c.segments.list();
    const s = c.rateLimitStatus();
    expect(s.minuteLimit).toBe(60);
    expect(s.dayLimit).toBe(5_000);
    expect(s.minuteRemaining).toBe(59);
    expect(s.dayRemaining).toBe(4_999);
    expect(s.resetsAt!.getTime()).toBeGreaterThanOrEqual(before);
  });
});

/**
 * The "day" of these tests: 4×10^12 ms (127 years, whole seconds), so the epoch-aligned window
 * the sandbox and the client both count in runs from 1970 to 2096 and no boundary can fall inside a
 * run, whenever it runs (an hour-long day failed across the clock hour). Fail-fast is shown by
 * the run ending at all: sleeping until the reset would outlast the test's timeout.
 */
const DAY_MS = 4_000_000_000_000;

describe('the daily budget', () => {
  it('runs out: items not yet valued fail fast with DailyLimitExhaustedError saying when it returns', async () => {
    sb = await start({ minuteMs: 1000, dayMs: DAY_MS, accounts: [{ client_id: 'daily', client_secret: 'daily-secret', tier: 'enterprise', per_day: 12 }] });
    const c = clientFor(sb, 'daily', { tier: 'enterprise', limits: { perDay: 12, minuteMs: 1000, dayMs: DAY_MS } });
    await c.segments.list();
    const out = await c.valueAll(watches(1_000));
    const ok = out.filter((o) => o.ok).length;
    expect(ok).toBe(11 * 50);
    const failed = out.filter((o) => !o.ok).map((o) => (o as { error: unknown }).error);
    expect(failed).toHaveLength(1_000 - 550);
    const e = failed[0] as DailyLimitExhaustedError;
    expect(e).toBeInstanceOf(DailyLimitExhaustedError);
    expect(e.resetAt.getTime()).toBe(DAY_MS);
    expect(e.message).toContain(`returns at ${e.resetAt.toISOString()}`);
    // Later calls fail before sending anything.
    const sent = (await readLog(sb)).length;
    await expect(c.segments.list()).rejects.toBeInstanceOf(DailyLimitExhaustedError);
    expect((await readLog(sb)).length).toBe(sent);
    expect(c.rateLimitStatus().dayRemaining).toBe(0);
  });

  it('a client not told the daily limit learns it from the service and fails fast too', async () => {
    sb = await start({ minuteMs: 1000, dayMs: DAY_MS, accounts: [{ client_id: 'daily', client_secret: 'daily-secret', tier: 'enterprise', per_day: 5 }] });
    const c = clientFor(sb, 'daily', { limits: { minuteMs: 1000, dayMs: DAY_MS } });
    const out = await c.valueAll(watches(500));
    expect(out.filter((o) => o.ok)).toHaveLength(250);
    expect(out.filter((o) => !o.ok).every((o) => !o.ok && o.error instanceof DailyLimitExhaustedError)).toBe(true);
    // Limits unknown: one request went first to learn them, then the gate knew the day's budget.
    const log = apiCalls(await readLog(sb));
    expect(count(log, (l) => l.status === 429)).toBe(0);
    expect(log).toHaveLength(5);
  });
});

describe('X-RateLimit-Reset read by magnitude', () => {
  const now = 1_700_000_000_000;
  it('seconds from now, epoch seconds, epoch milliseconds', () => {
    expect(parseResetHeader('30', now)).toBe(now + 30_000);
    expect(parseResetHeader('1700000060', now)).toBe(1_700_000_060_000);
    expect(parseResetHeader('1700000060000', now)).toBe(1_700_000_060_000);
    expect(parseResetHeader('soon', now)).toBeUndefined();
    expect(parseResetHeader(null, now)).toBeUndefined();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DailyLimitExhaustedError } from '../../src/client';
import { RateGate } from '../../src/client/rate-gate';

// The gate's arithmetic on a simulated clock (vitest fake timers): the invariants the HTTP
// tests can only sample. Answers take 5-40 ms, except that the first 600 ms of every 2 s the
// "service" stalls and answers nothing: every worker ends up waiting, slots are missed, and
// the catch-up afterwards runs into the log's bound.
beforeEach(() => vi.useFakeTimers({ now: 1_700_000_000_123 }));
afterEach(() => vi.useRealTimers());

function lcg(seed: number) {
  let s = seed;
  return () => ((s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

async function run(gate: RateGate, workers: number, grantsWanted: number, latency: () => number): Promise<number[]> {
  const grants: number[] = [];
  const worker = async () => {
    while (grants.length < grantsWanted) {
      const permit = await gate.acquire();
      grants.push(Date.now());
      await new Promise((r) => setTimeout(r, latency()));
      gate.observe(permit, {});
    }
  };
  const all = Promise.all(Array.from({ length: workers }, worker));
  while (grants.length < grantsWanted) await vi.advanceTimersByTimeAsync(5);
  await vi.advanceTimersByTimeAsync(1_000);
  await all;
  return grants;
}

describe('rate gate', () => {
  it('never lets a window of the limit plus margin hold more than the limit, nor any epoch-aligned window', async () => {
    const gate = new RateGate({ perMinute: 60, minuteMs: 1000, dayMs: 86_400_000 });
    const random = lcg(42);
    const stalledFor = () => Math.max(0, 600 - (Date.now() % 2000));
    const grants = await run(gate, 16, 600, () => stalledFor() + 5 + random() * 35);
    for (let i = 0; i + 60 < grants.length; i++) expect(grants[i + 60]! - grants[i]!).toBeGreaterThanOrEqual(1000 + 15);
    const perWindow = new Map<number, number>();
    for (const t of grants) perWindow.set(Math.floor(t / 1000), (perWindow.get(Math.floor(t / 1000)) ?? 0) + 1);
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(60);
    // Paced: never closer than half a spacing; and slow answers do not cost the budget.
    for (let i = 1; i < grants.length; i++) expect(grants[i]! - grants[i - 1]!).toBeGreaterThanOrEqual(1015 / 60 / 2 - 1);
    // Stalls cost what they cost, but not more: the catch-up makes up part of each.
    const rate = ((grants.length - 1) / (grants.at(-1)! - grants[0]!)) * 1000;
    expect(rate / 60).toBeGreaterThan(0.8);
  });

  it('shares one budget across callers and fails fast once the day is spent', async () => {
    const gate = new RateGate({ perMinute: 600, perDay: 25, minuteMs: 1000, dayMs: 86_400_000 });
    const grants = await run(gate, 3, 25, () => 10);
    expect(grants).toHaveLength(25);
    const err = await gate.acquire().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DailyLimitExhaustedError);
    expect((err as DailyLimitExhaustedError).resetAt.getTime()).toBe(Math.ceil(Date.now() / 86_400_000) * 86_400_000);
    expect(gate.status()).toMatchObject({ dayLimit: 25, dayRemaining: 0 });
  });

  it('a 429 saying the budget is spent holds every caller until the reset', async () => {
    const gate = new RateGate({ perMinute: 60, minuteMs: 1000, dayMs: 86_400_000 });
    const permit = await gate.acquire();
    const resetAt = Math.ceil((Date.now() + 1) / 1000) * 1000 + 1000;
    const verdict = gate.rateLimited(permit, { minuteLimit: 60, minuteRemaining: 0, minuteResetAt: resetAt, retryAt: resetAt });
    expect(verdict).toEqual({ waitMs: 0 });
    let granted = 0;
    void gate.acquire().then(() => granted++);
    await vi.advanceTimersByTimeAsync(resetAt - Date.now() - 1);
    expect(granted).toBe(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(granted).toBe(1);
  });
});

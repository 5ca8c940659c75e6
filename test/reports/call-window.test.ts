import { describe, expect, it } from 'vitest';
import { AbortedError } from '../../src/client';
import { CallWindow, INITIAL_WINDOW, MAX_AUTO_WINDOW, WARM_SAMPLES, windowFor } from '../../reports/run/call-window';

const pacing = (perMinute: number | undefined, roundTripMs: number | undefined, samples = roundTripMs === undefined ? 0 : WARM_SAMPLES) => ({ callsPerMs: perMinute === undefined ? undefined : perMinute / 60_000, roundTripMs, samples });

describe("the job's window of calls in flight", () => {
  it("is sized by Little's law from the pace and the round trip, with headroom, and capped", () => {
    // 3,000 a minute is 0.05 calls a ms; at 200 ms a call, 10 are in flight: 2 × 10 + 2.
    expect(windowFor(pacing(3000, 200))).toBe(22);
    // 1,000 a minute at 200 ms: 3.3 in flight.
    expect(windowFor(pacing(1000, 200))).toBe(9);
    // A local service (2 ms) needs barely one more than the one being answered.
    expect(windowFor(pacing(3600, 2))).toBe(3);
    expect(windowFor(pacing(100_000, 1000))).toBe(MAX_AUTO_WINDOW);
    expect(windowFor(pacing(undefined, 200))).toBe(INITIAL_WINDOW);
    expect(windowFor(pacing(1000, undefined))).toBe(INITIAL_WINDOW);
    // Until the round trip is known from several calls, not the first cheap one alone: no smaller than the initial window.
    expect(windowFor(pacing(3600, 2, 1))).toBe(INITIAL_WINDOW);
    expect(windowFor(pacing(3000, 200, 1))).toBe(22);
  });

  it('grants up to the window, makes later callers wait for released slots, and serves them in order', async () => {
    const w = new CallWindow(4);
    expect(await w.acquire(3)).toBe(3);
    const order: string[] = [];
    const big = w.acquire(3).then((n) => order.push(`big:${n}`));
    const small = w.acquire(1).then((n) => order.push(`small:${n}`));
    await Promise.resolve();
    expect(order).toEqual([]); // one slot is free, but the first in line wants three
    w.release(2);
    await big;
    await Promise.resolve();
    expect(order).toEqual(['big:3']); // 1 + 3 in use: the small one waits for room
    w.release(3);
    await small;
    expect(order).toEqual(['big:3', 'small:1']);
    expect(w.inUse).toBe(2);
  });

  it('never grants more than the window, even to a request for more', async () => {
    const w = new CallWindow(5);
    expect(await w.acquire(120)).toBe(5);
    w.release(5);
    expect(w.inUse).toBe(0);
  });

  it('follows the sizer after each release', async () => {
    let size = 2;
    const w = new CallWindow(size, () => size);
    await w.run(async () => undefined);
    size = 6;
    await w.run(async () => undefined);
    expect(w.size).toBe(6);
  });

  it('rejects a waiter whose signal aborts, and gives its place to the next', async () => {
    const w = new CallWindow(1);
    await w.acquire(1);
    const stop = new AbortController();
    const waiting = w.acquire(1, stop.signal);
    const next = w.acquire(1);
    stop.abort();
    await expect(waiting).rejects.toBeInstanceOf(AbortedError);
    w.release(1);
    expect(await next).toBe(1);
  });
});

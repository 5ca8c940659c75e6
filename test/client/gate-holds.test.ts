import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RateGate } from '../../src/client';
import { answer, realAnswer, scripted, scriptedClient, start, type Sandbox } from './helpers';

// The gate's reactions to 401s and 429s, through the client, on a fake clock: the scripted
// answers replay a real sandbox body, and only the headers under test are sent.
let segmentsBody: string;
let sb: Sandbox;
beforeAll(async () => {
  sb = await start();
  segmentsBody = await realAnswer(sb, '/segments');
});
afterAll(() => sb.close());
afterEach(() => vi.useRealTimers());

const ok = () => answer(200, segmentsBody);
const refused429 = (headers: Record<string, string>) => answer(429, JSON.stringify({ error: { code: 429, type: 'rate_limited', message: 'Slow down.' } }), headers);
const refused401 = () => answer(401, JSON.stringify({ error: { code: 401, type: 'unauthorised', message: 'Token expired.', action: 'refresh_token' } }));
/** 600 a minute (one per 100 ms), a 10 ms margin, 10 a day. */
const gate = () => new RateGate({ perMinute: 600, perDay: 10, minuteMs: 60_000, dayMs: 86_400_000, marginMs: 10 });

describe('429s and 401s in the gate', () => {
  it('a 429 with only Retry-After (no X-RateLimit-*) holds every caller of the account until then', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const s = scripted([refused429({ 'retry-after': '5' }), ok(), ok()]);
    const c = scriptedClient(s.fetchImpl, { rateGate: gate() });
    const first = c.segments.list();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.sentAt).toHaveLength(1);
    const refusedAt = s.sentAt[0]!;
    const second = c.segments.list(); // another caller of the same account
    await vi.advanceTimersByTimeAsync(4_999);
    expect(s.sentAt).toHaveLength(1); // neither the refused call nor the other one left
    await vi.advanceTimersByTimeAsync(1_000);
    await Promise.all([first, second]);
    expect(s.sentAt).toHaveLength(3);
    for (const t of s.sentAt.slice(1)) expect(t - refusedAt).toBeGreaterThanOrEqual(5_000);
  });

  it('a 429 that still shows budget (Remaining > 0) delays only the refused call', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const s = scripted([refused429({ 'retry-after': '5', 'x-ratelimit-remaining': '40' }), ok(), ok()]);
    const c = scriptedClient(s.fetchImpl, { rateGate: gate() });
    const first = c.segments.list();
    await vi.advanceTimersByTimeAsync(0);
    const second = c.segments.list();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(s.sentAt).toHaveLength(2); // the other caller went on its pace
    await vi.advanceTimersByTimeAsync(4_000);
    await Promise.all([first, second]);
    expect(s.sentAt).toHaveLength(3);
  });

  it('a 429 does not count against the day', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const g = gate();
    const s = scripted([refused429({ 'retry-after': '1' }), ok()]);
    const call = scriptedClient(s.fetchImpl, { rateGate: g }).segments.list();
    await vi.advanceTimersByTimeAsync(2_000);
    await call;
    expect(s.sentAt).toHaveLength(2);
    expect(g.status().dayRemaining).toBe(9); // the answered call only
  });

  it('a 401 does not count against the day (the token is renewed and the call repeated)', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const g = gate();
    const s = scripted([refused401(), ok()]);
    const forced: boolean[] = [];
    const c = scriptedClient(s.fetchImpl, { rateGate: g, tokenProvider: ({ forceRefresh }) => (forced.push(forceRefresh), 'host-token') });
    const call = c.segments.list();
    await vi.advanceTimersByTimeAsync(1_000);
    await call;
    expect(forced).toEqual([false, true]);
    expect(g.status().dayRemaining).toBe(9);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ServiceClient, ConnectionError, BadRequestError } from '../../src/client';
import { startSandbox, DEMO_ACCOUNTS, type RunningSandbox } from '../../src/sandbox';
import type { BatchValuationItem, ValuationRequest } from '../../src/wire';
import { CoalescingQueue } from '../../addin/src/dispatcher/coalescing-queue';
import { CancelledError } from '../../addin/src/dispatcher/outcome';
import { Poller } from '../../addin/src/dispatcher/poller';
import { AddinRuntime, PreviewNotCachedError } from '../../addin/src/shared/runtime';
import { requestKey } from '../../addin/src/shared/request-key';
import { clientBackend } from '../../addin/src/shared/client-backend';
import type { SandboxLogLine } from './stack';

const account = DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!;
let sandbox: RunningSandbox;
let dir: string;
let logFile: string;
let clientSeq = 0;

/** A fresh client (its own rate gate key, so tests do not share a budget view). */
function client(opts: Partial<ConstructorParameters<typeof ServiceClient>[0]> = {}): ServiceClient {
  return new ServiceClient({ baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret, tier: 'enterprise', rateLimitKey: `dispatcher-test-${clientSeq++}`, ...opts });
}

async function log(): Promise<SandboxLogLine[]> {
  const text = await readFile(logFile, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as SandboxLogLine);
}

async function batchCallsSince(before: number): Promise<SandboxLogLine[]> {
  return (await log()).slice(before).filter((l) => l.path === '/v1/valuations/batch');
}

function watch(i: number): ValuationRequest {
  return { segment: 'watches', brand: 'Rolex', model: `Model ${i}`, reference: `R${i}` };
}

function valuationQueue(c: ServiceClient, extra: Partial<ConstructorParameters<typeof CoalescingQueue<ValuationRequest, BatchValuationItem>>[0]> = {}) {
  return new CoalescingQueue<ValuationRequest, BatchValuationItem>({
    batch: (items, signal) => c.valueAll(items, { signal }),
    keyOf: requestKey,
    ...extra,
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'svc-dispatcher-'));
  logFile = path.join(dir, 'log.jsonl');
  sandbox = await startSandbox({ port: 0, quiet: true, logFile });
});

afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

describe('coalescing queue against the sandbox', () => {
  it('asks 1,000 cells over 300 distinct assets in exactly 6 batch calls of at most 50, each cell getting its own answer', async () => {
    const c = client();
    const q = valuationQueue(c);
    const before = (await log()).length;
    const cells = Array.from({ length: 1000 }, (_, i) => watch(i % 300));
    const answers = await Promise.all(cells.map((r) => q.request(r)));
    const calls = await batchCallsSince(before);
    expect(calls).toHaveLength(6);
    expect(calls.every((l) => l.items <= 50 && l.status === 200)).toBe(true);
    expect(calls.reduce((s, l) => s + l.items, 0)).toBe(300);
    expect(q.stats).toMatchObject({ requests: 1000, batchCalls: 6, itemsSent: 300, joined: 700 });
    // Each cell got its own asset's answer: compare with a direct valuation of the same 300.
    const direct = await client().valueAll(cells.slice(0, 300));
    answers.forEach((a, i) => {
      const d = direct[i % 300]!;
      if (!d.ok) throw d.error;
      expect(a.asset_id).toBe(d.value.asset_id);
      expect(a.estimated_value.mid).toBe(d.value.estimated_value.mid);
    });
    expect(new Set(answers.map((a) => a.asset_id)).size).toBe(300);
  });

  it('gives a bad item its own error and the others their values', async () => {
    const q = valuationQueue(client());
    const before = (await log()).length;
    const bad: ValuationRequest = { segment: 'watches', brand: 'x'.repeat(101), model: 'Too long a brand' };
    const good = Array.from({ length: 9 }, (_, i) => watch(1200 + i));
    const results = await Promise.allSettled([...good.map((r) => q.request(r)), q.request(bad), q.request(bad)]);
    results.slice(0, 9).forEach((r) => expect(r.status).toBe('fulfilled'));
    for (const r of results.slice(9)) {
      expect(r.status).toBe('rejected');
      const e = (r as PromiseRejectedResult).reason as BadRequestError;
      expect(e).toBeInstanceOf(BadRequestError);
      expect(e.field).toContain('brand');
    }
    const calls = await batchCallsSince(before);
    expect(calls.map((l) => l.items)).toEqual([9]);
  });

  it('settles every waiting cell when the network fails', async () => {
    const dead = new ServiceClient({ baseUrl: 'http://127.0.0.1:9/v1', clientId: 'x', clientSecret: 'y', maxRetries: 0, timeoutMs: 2000, rateLimitKey: 'dead' });
    const q = valuationQueue(dead);
    const results = await Promise.allSettled(Array.from({ length: 120 }, (_, i) => q.request(watch(i % 70))));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(results.every((r) => (r as PromiseRejectedResult).reason instanceof ConnectionError)).toBe(true);
    expect(q.stats.batchCalls).toBe(2);
  });

  it('serves the cache until valid_until, then asks again; clearCache forces a refresh', async () => {
    let now = Date.now();
    const q = valuationQueue(client(), { now: () => now, expiresAt: (item) => Date.parse(item.valid_until!) });
    const before = (await log()).length;
    const a = await q.request(watch(1300));
    expect(a.valid_until).toBeDefined();
    await q.request(watch(1300));
    expect(q.stats.cacheHits).toBe(1);
    expect(await batchCallsSince(before)).toHaveLength(1);
    now = Date.parse(a.valid_until!) + 1;
    await q.request(watch(1300));
    expect(await batchCallsSince(before)).toHaveLength(2);
    q.clearCache();
    await q.request(watch(1300));
    expect(await batchCallsSince(before)).toHaveLength(3);
  });
});

describe('cancellation', () => {
  it('drops a queued request nobody waits for any more', async () => {
    const q = valuationQueue(client(), { idleMs: 30, maxWaitMs: 100 });
    const before = (await log()).length;
    const gone = new AbortController();
    const cancelled = q.request(watch(1400), gone.signal);
    const kept = q.request(watch(1401));
    const shared = new AbortController();
    const sharedCancelled = q.request(watch(1402), shared.signal);
    const sharedKept = q.request(watch(1402));
    gone.abort();
    shared.abort();
    await expect(cancelled).rejects.toBeInstanceOf(CancelledError);
    await expect(sharedCancelled).rejects.toBeInstanceOf(CancelledError);
    await kept;
    await sharedKept;
    const calls = await batchCallsSince(before);
    expect(calls.map((l) => l.items)).toEqual([2]);
  });

  it('aborts a call in flight when every cell of it is cancelled', async () => {
    const slow = await startSandbox({ port: 0, quiet: true, faults: 'latency=400-400' });
    try {
      const c = new ServiceClient({ baseUrl: slow.url, clientId: account.client_id, clientSecret: account.client_secret, rateLimitKey: 'slow' });
      await c.segments.list(); // sign in first, so the abort lands on the batch call
      let upstreamSignal: AbortSignal | undefined;
      let called!: () => void;
      const batchCalled = new Promise<void>((r) => (called = r));
      const q = new CoalescingQueue<ValuationRequest, BatchValuationItem>({
        keyOf: requestKey,
        idleMs: 1,
        batch: (items, signal) => {
          upstreamSignal = signal;
          called();
          return c.valueAll(items, { signal });
        },
      });
      const a = new AbortController();
      const b = new AbortController();
      const settledCells: string[] = [];
      const cells = [q.request(watch(1500), a.signal), q.request(watch(1501), b.signal)].map((p, i) => p.catch((e: unknown) => (settledCells.push(`cell ${i}`), e)));
      await batchCalled; // the call is in flight: an event, not a guess at how long that takes
      expect(upstreamSignal?.aborted).toBe(false);
      a.abort();
      expect(upstreamSignal?.aborted).toBe(false);
      b.abort();
      expect(upstreamSignal?.aborted).toBe(true);
      // Released at once: both cells have settled before any timer or I/O could run.
      await new Promise((r) => setImmediate(r));
      expect(settledCells.sort()).toEqual(['cell 0', 'cell 1']);
      expect((await Promise.all(cells)).every((e) => e instanceof CancelledError)).toBe(true);
    } finally {
      await slow.close();
    }
  });
});

describe('runtime', () => {
  it('spends no call in a formula value preview, and shows what is cached', async () => {
    const runtime = new AddinRuntime(clientBackend(client()));
    const before = (await log()).length;
    const preview = { signal: new AbortController().signal, preview: true };
    await expect(runtime.valuation(watch(1600), 'USD', preview)).rejects.toBeInstanceOf(PreviewNotCachedError);
    await expect(runtime.breakdown('SVC-WAT-ROLEX-R1600', preview)).rejects.toBeInstanceOf(PreviewNotCachedError);
    expect((await log()).length).toBe(before);
    const real = await runtime.valuation(watch(1600), 'USD', { ...preview, preview: false });
    const shown = await runtime.valuation(watch(1600), 'USD', preview);
    expect(shown).toEqual(real);
    const apiCalls = (await log()).slice(before).filter((l) => !l.path.startsWith('/v1/auth/'));
    expect(apiCalls.map((l) => l.path)).toEqual(['/v1/valuations/batch']);
  });

  it('keeps currencies apart and de-duplicates single calls (breakdowns) too', async () => {
    const runtime = new AddinRuntime(clientBackend(client()));
    const before = (await log()).length;
    const call = { signal: new AbortController().signal, preview: false };
    const [usd, eur] = await Promise.all([runtime.valuation(watch(1700), 'USD', call), runtime.valuation(watch(1700), 'EUR', call)]);
    expect(usd.estimated_value.currency).toBe('USD');
    expect(eur.estimated_value.currency).toBe('EUR');
    const breakdowns = await Promise.all(Array.from({ length: 20 }, () => runtime.breakdown(usd.asset_id, call)));
    expect(new Set(breakdowns.map((b) => b.service_score)).size).toBe(1);
    const lines = (await log()).slice(before);
    expect(lines.filter((l) => l.path === '/v1/valuations/batch')).toHaveLength(2);
    expect(lines.filter((l) => l.path === '/v1/scores/breakdown')).toHaveLength(1);
  });

  it('answers any number of streaming cells with one poll', async () => {
    const runtime = new AddinRuntime(clientBackend(client()));
    const before = (await log()).length;
    let deliveries = 0;
    let allHeard!: () => void;
    const heard = new Promise<void>((r) => (allHeard = r));
    const stops = Array.from({ length: 25 }, () =>
      runtime.subscribeAlerts(60_000, (r) => {
        expect(r.ok).toBe(true);
        if (++deliveries === 25) allHeard();
      }),
    );
    await heard;
    stops.forEach((s) => s());
    expect((await log()).slice(before).filter((l) => l.path === '/v1/signals/alerts')).toHaveLength(1);
  });
});

describe('timing, on fake timers (no assertion depends on how fast the machine is)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A queue whose batch calls are recorded and answered at once. */
  function recordingQueue(options: { idleMs: number; maxWaitMs: number }) {
    const calls: number[][] = [];
    const q = new CoalescingQueue<number, number>({
      keyOf: String,
      ...options,
      batch: async (items) => {
        calls.push([...items]);
        return items.map((v) => ({ ok: true as const, value: v * 10 }));
      },
    });
    return { q, calls };
  }

  it('never closes the window early: a cell inside the idle gap joins, the call leaves exactly when the gap has passed', async () => {
    vi.useFakeTimers();
    const { q, calls } = recordingQueue({ idleMs: 50, maxWaitMs: 1_000 });
    const first = q.request(1);
    await vi.advanceTimersByTimeAsync(49);
    expect(calls).toEqual([]); // still open one millisecond before the gap
    const second = q.request(2); // arrives inside the window, which stays open 50 ms from now
    await vi.advanceTimersByTimeAsync(49);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([[1, 2]]);
    expect(await Promise.all([first, second])).toEqual([10, 20]);
    // After the window closed, a new cell opens a new one.
    const third = q.request(3);
    await vi.advanceTimersByTimeAsync(50);
    expect(calls).toEqual([[1, 2], [3]]);
    expect(await third).toBe(30);
  });

  it('sends a steady trickle at the cap even though it never pauses', async () => {
    vi.useFakeTimers();
    const { q, calls } = recordingQueue({ idleMs: 50, maxWaitMs: 200 });
    const pending: Promise<number>[] = [];
    for (let i = 0; i < 8; i++) {
      pending.push(q.request(i));
      await vi.advanceTimersByTimeAsync(40); // always inside the idle gap
    }
    // t = 320: the first window was capped at 200 ms (cells at 0..160), the second holds the rest so far.
    expect(calls[0]).toEqual([0, 1, 2, 3, 4]);
    await vi.advanceTimersByTimeAsync(200);
    expect(calls.flat()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    await Promise.all(pending);
  });

  it('stays at ceil(D/50) calls when a recalculation arrives in bursts inside the idle gap', async () => {
    vi.useFakeTimers();
    const { q, calls } = recordingQueue({ idleMs: 50, maxWaitMs: 1_000 });
    const pending: Promise<number>[] = [];
    for (let burst = 0; burst < 12; burst++) {
      for (let i = 0; i < 25; i++) pending.push(q.request((burst * 10 + i) % 120));
      await vi.advanceTimersByTimeAsync(15);
    }
    await vi.advanceTimersByTimeAsync(50);
    await Promise.all(pending);
    expect(calls.map((c) => c.length)).toEqual([50, 50, 20]);
  });

  it('polls alerts once per interval for any number of streaming cells, and stops with the last one', async () => {
    vi.useFakeTimers();
    let polls = 0;
    const poller = new Poller(async () => ++polls);
    const heard: number[][] = Array.from({ length: 25 }, () => []);
    const stops = heard.map((h) => poller.subscribe(60_000, (r) => r.ok && h.push(r.value)));
    await vi.advanceTimersByTimeAsync(0);
    expect(polls).toBe(1);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(polls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(polls).toBe(2);
    expect(heard.every((h) => h.join() === '1,2')).toBe(true);
    stops.forEach((s) => s());
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(polls).toBe(2);
  });
});

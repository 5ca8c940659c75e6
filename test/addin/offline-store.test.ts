import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/client';
import { DEMO_ACCOUNTS, startSandbox, type RunningSandbox } from '../../src/sandbox';
import { AnswerStore, KEEP_EXPIRED_MS, type KeptAnswer } from '../../addin/src/dispatcher/answer-store';
import { StorageBudget, type MachineStorage } from '../../addin/src/dispatcher/machine-storage';
import { CoalescingQueue } from '../../addin/src/dispatcher/coalescing-queue';
import { AddinRuntime, type CallContext } from '../../addin/src/shared/runtime';
import { clientBackend } from '../../addin/src/shared/client-backend';
import { holdingForAssetId, requestForAssetId } from '../../addin/src/shared/holdings';
import { realCatalogueIds } from '../../fixtures/issued-ids';

/**
 * The machine's storage as OfficeRuntime.storage behaves: asynchronous (every answer a later
 * task), one quota for the add-in's items together, a setItem past it refused (rejected).
 */
class QuotaStorage implements MachineStorage {
  readonly items = new Map<string, string>();
  writes = 0;
  constructor(private readonly quotaChars: number) {}
  private later<T>(f: () => T): Promise<T> {
    return new Promise((resolve, reject) => setTimeout(() => { try { resolve(f()); } catch (e) { reject(e as Error); } }, 1));
  }
  get usedChars(): number {
    let n = 0;
    for (const v of this.items.values()) n += v.length;
    return n;
  }
  getItem(key: string) {
    return this.later(() => this.items.get(key) ?? null);
  }
  setItem(key: string, value: string) {
    return this.later(() => {
      if (this.usedChars - (this.items.get(key)?.length ?? 0) + value.length > this.quotaChars) throw new Error('QuotaExceededError');
      this.writes++;
      this.items.set(key, value);
    });
  }
  removeItem(key: string) {
    return this.later(() => void this.items.delete(key));
  }
}

const NOW = Date.UTC(2026, 10, 23, 12);
const answers = (n: number, from: number, size: number, expiresAt = NOW + 3_600_000): KeptAnswer<string>[] =>
  Array.from({ length: n }, (_, i) => [`k${from + i}`, 'x'.repeat(size), expiresAt, NOW - 3_600_000]);

describe('answers kept on the machine: bounds', () => {
  it('stores sharing one budget stay within it together, keeping the newest answers', async () => {
    const storage = new QuotaStorage(10_000_000);
    const budget = new StorageBudget(50_000);
    const a = new AnswerStore<string>(storage, 'a', { budget });
    const b = new AnswerStore<string>(storage, 'b', { budget });
    await a.save(answers(100, 0, 300), NOW); // ~31k characters
    await b.save(answers(100, 1000, 300), NOW); // would take the pair past 50k
    expect(storage.usedChars).toBeLessThanOrEqual(50_000);
    const keptB = await b.load(NOW);
    expect(keptB.length).toBeLessThan(100);
    expect(keptB.at(-1)![0]).toBe('k1099');
    expect((await a.load(NOW)).length).toBe(100);
  });

  it("gives up the oldest half when the storage refuses (its quota below our budget), and never throws", async () => {
    const storage = new QuotaStorage(20_000);
    const store = new AnswerStore<string>(storage, 'v', { budget: new StorageBudget(1_000_000) });
    await store.save(answers(200, 0, 300), NOW);
    const kept = await store.load(NOW);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(200);
    expect(kept.at(-1)![0]).toBe('k199');
    expect(storage.usedChars).toBeLessThanOrEqual(20_000);
  });

  it('keeps expired answers as last known for KEEP_EXPIRED_MS, then drops them', async () => {
    const storage = new QuotaStorage(10_000_000);
    const store = new AnswerStore<string>(storage, 'v');
    await store.save([...answers(2, 0, 10, NOW - 1000), ...answers(1, 10, 10, NOW - KEEP_EXPIRED_MS - 1)], NOW);
    expect((await store.load(NOW)).map((e) => e[0])).toEqual(['k0', 'k1']);
    expect(await store.load(NOW + KEEP_EXPIRED_MS)).toEqual([]);
  });

  it('a queue answers from what is kept once the read completes, and remembers expired answers as last known only', async () => {
    const storage = new QuotaStorage(10_000_000);
    let now = NOW;
    await new AnswerStore<number>(storage, 'q').save([['a', 1, NOW + 1000, NOW - 1000], ['b', 2, NOW - 1000, NOW - 2000]], NOW);
    let calls = 0;
    const queue = new CoalescingQueue<string, number>({
      keyOf: (k) => k,
      now: () => now,
      idleMs: 1,
      store: new AnswerStore<number>(storage, 'q'),
      expiresAt: () => now + 1000,
      batch: async (ks) => {
        calls++;
        return ks.map(() => ({ ok: true as const, value: 42 }));
      },
    });
    // Asked before the (asynchronous) read finished: still answered from it, no call.
    expect(await queue.request('a')).toBe(1);
    expect(calls).toBe(0);
    expect(queue.lastKnown('b')).toEqual({ value: 2, expiresAt: NOW - 1000 });
    expect(await queue.request('b')).toBe(42);
    now += 2000;
    expect(queue.peek('a')).toBeUndefined();
    expect(queue.lastKnown('a')).toEqual({ value: 1, expiresAt: NOW + 1000 });
  });
});

describe('the runtime when the service cannot be reached (sandbox stopped)', () => {
  let sandbox: RunningSandbox;
  let ids: string[];
  const account = DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!;

  beforeAll(async () => {
    // Two days behind: every answer arrives past its valid_until, so each ask goes upstream.
    sandbox = await startSandbox({ port: 0, quiet: true, now: () => new Date(Date.now() - 2 * 86_400_000) });
    ids = await realCatalogueIds(sandbox.url, account, 2);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('plain values: #N/A unless the caller can mark them stale and the setting is on; cards: always the last known, with when it went stale', async () => {
    const client = new ServiceClient({ baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret, maxRetries: 0, rateLimitKey: 'offline-store' });
    const storage = new QuotaStorage(10_000_000);
    const runtime = new AddinRuntime(clientBackend(client), { storage, idleMs: 1, source: async () => ({ service: 'test sandbox', sandbox: true }) });
    const request = requestForAssetId(holdingForAssetId('asset', ids[0]!));
    const stale: number[] = [];
    const cell = (): CallContext => ({ signal: new AbortController().signal, preview: false, servedStale: (t) => stale.push(t) });
    const pane = { signal: new AbortController().signal, preview: false };

    const online = await runtime.valuation(request, 'USD', cell());
    const card = await runtime.assetCard(request, 'USD', cell(), true);
    expect(card.staleSince).toBeUndefined();
    expect(stale).toEqual([]);
    await sandbox.close();

    await expect(runtime.valuation(request, 'USD', cell())).rejects.toMatchObject({ name: 'ConnectionError' });
    const offlineCard = await runtime.assetCard(request, 'USD', cell(), true);
    expect(offlineCard.value).toEqual(card.value);
    expect(offlineCard.staleSince).toBe(Date.parse(card.value.valuation.valid_until!));
    // The row of a host without cards is a plain cell: #N/A while the setting is off.
    await expect(runtime.assetCard(request, 'USD', cell(), false)).rejects.toMatchObject({ name: 'ConnectionError' });

    await runtime.setUseLastKnownWhenOffline(true);
    expect(storage.items.get('svc-addin:settings:use-last-known-when-offline')).toBe('on');
    stale.length = 0;
    expect(await runtime.valuation(request, 'USD', cell())).toEqual(online);
    expect(stale).toEqual([Date.parse(online.valid_until!)]);
    // A caller that writes plain numbers (the pane's Value selection) never gets a stale one.
    await expect(runtime.valuation(request, 'USD', pane)).rejects.toMatchObject({ name: 'ConnectionError' });
    // Nothing known for this asset: still the error.
    await expect(runtime.valuation(requestForAssetId(holdingForAssetId('asset', ids[1]!)), 'USD', cell())).rejects.toMatchObject({ name: 'ConnectionError' });
    // A fresh runtime on the same storage reads the setting.
    const next = new AddinRuntime(clientBackend(client), { storage });
    expect(await next.useLastKnownWhenOffline()).toBe(true);
  }, 60_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/client';
import { DEMO_ACCOUNTS, startSandbox, type RunningSandbox } from '../../src/sandbox';
import { STORED_TRUST_CAP_MS, trustedExpiry, type KeptAnswer } from '../../addin/src/dispatcher/answer-store';
import { asyncStorage, type MachineStorage } from '../../addin/src/dispatcher/machine-storage';
import { MemoryStorage } from '../../addin/src/shared/safe-storage';
import { AddinRuntime, type CallContext } from '../../addin/src/shared/runtime';
import { clientBackend } from '../../addin/src/shared/client-backend';
import type { RuntimeBackend } from '../../addin/src/shared/backend';
import { holdingForAssetId, requestForAssetId } from '../../addin/src/shared/holdings';
import { realCatalogueIds } from '../../fixtures/issued-ids';

/**
 * Issue 29: answers kept on the machine can be edited by anything running as the user. Read
 * back, a kept answer passes the checks a network answer passes (the wire schema, the asset it
 * answers) and its expiry is recomputed from its own body and arrival, capped at a day: an
 * answer edited to expire far in the future, or another asset's answer kept under a request's
 * key, is never served as current: online it is asked again, offline it is shown stale (an
 * edited expiry) or not at all (another asset's answer).
 */
const VALUATIONS = 'svc-addin:answers:valuations:USD';
const CARDS = 'svc-addin:answers:cards:v2';
const account = DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!;

/** The add-in's own memory store (what the page uses when the browser refuses storage), with a way to wait for an item's write. */
class WatchedStorage implements MachineStorage {
  readonly items = new MemoryStorage();
  private readonly inner = asyncStorage(this.items);
  private readonly waiting = new Map<string, () => void>();
  getItem(key: string) {
    return this.inner.getItem(key);
  }
  async setItem(key: string, value: string) {
    await this.inner.setItem(key, value);
    this.waiting.get(key)?.();
  }
  removeItem(key: string) {
    return this.inner.removeItem(key);
  }
  written(key: string): Promise<void> {
    return new Promise((resolve) => this.waiting.set(key, resolve));
  }
  /** Edits a kept item as anything on the machine could. */
  edit<V>(key: string, change: (entries: KeptAnswer<V>[]) => KeptAnswer<V>[]): void {
    this.items.setItem(key, JSON.stringify(change(JSON.parse(this.items.getItem(key)!) as KeptAnswer<V>[])));
  }
  copy(): WatchedStorage {
    const c = new WatchedStorage();
    for (const k of [VALUATIONS, CARDS]) {
      const v = this.items.getItem(k);
      if (v !== null) c.items.setItem(k, v);
    }
    return c;
  }
}

let sandbox: RunningSandbox;
let ids: string[];
let client: ServiceClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  ids = await realCatalogueIds(sandbox.url, account, 2);
  client = new ServiceClient({ baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret, maxRetries: 0, rateLimitKey: 'stored-answers' });
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
});

/** A runtime over `storage` whose clock is `clock()`, counting the asset ids it asks the service for. */
function runtimeOver(storage: MachineStorage, clock: () => number) {
  const asked: string[] = [];
  const backend = clientBackend(client);
  const counted: RuntimeBackend = {
    ...backend,
    valueBatch: (items, currency, signal) => {
      asked.push(...items.map((i) => i.asset_id ?? '?'));
      return backend.valueBatch(items, currency, signal);
    },
    valuate: (request, currency, signal) => {
      asked.push(`card ${request.asset_id ?? '?'}`);
      return backend.valuate(request, currency, signal);
    },
  };
  const runtime = new AddinRuntime(counted, { storage, idleMs: 1, now: clock, source: async () => ({ service: 'test sandbox', sandbox: true }) });
  return { runtime, asked };
}

/** A runtime whose service cannot be reached (nothing listens on port 9 of this machine). */
function offlineOver(storage: MachineStorage, clock: () => number): AddinRuntime {
  const unreachable = new ServiceClient({ baseUrl: 'http://127.0.0.1:9', clientId: account.client_id, clientSecret: account.client_secret, maxRetries: 0, rateLimitKey: 'stored-answers-offline' });
  return new AddinRuntime(clientBackend(unreachable), { storage, idleMs: 1, now: clock, source: async () => ({ service: 'test sandbox', sandbox: true }) });
}

const requestFor = (id: string) => requestForAssetId(holdingForAssetId('asset', id));
const cell = (stale: number[] = []): CallContext => ({ signal: new AbortController().signal, preview: false, servedStale: (t) => stale.push(t) });

/** Two assets' valuations and cards asked online and kept; returns the storage and when they arrived. */
async function keptOnline() {
  const storage = new WatchedStorage();
  const arrived = Date.now();
  const { runtime } = runtimeOver(storage, () => arrived);
  const valuations = storage.written(VALUATIONS);
  const cards = storage.written(CARDS);
  const values = await Promise.all(ids.map((id) => runtime.valuation(requestFor(id), 'USD', cell())));
  const cardAnswers = await Promise.all(ids.map((id) => runtime.assetCard(requestFor(id), 'USD', cell(), true)));
  await Promise.all([valuations, cards]);
  return { storage, arrived, values, cards: cardAnswers.map((c) => c.value) };
}

describe('a kept answer is trusted no longer than its own body says, and never more than a day after it arrived', () => {
  it('the expiry is the least of the stored one, the recomputed one and a day past arrival; a record from the future is not trusted', () => {
    const at = Date.UTC(2026, 10, 26, 12);
    expect(trustedExpiry(['k', 1, 8.0e15, at], at + 3_600_000, at + 60_000)).toBe(at + 3_600_000);
    expect(trustedExpiry(['k', 1, at + 60_000, at], at + 3_600_000, at + 1)).toBe(at + 60_000);
    expect(trustedExpiry(['k', 1, 8.0e15, at], 8.0e15, at + 1)).toBe(at + STORED_TRUST_CAP_MS);
    expect(trustedExpiry(['k', 1, 8.0e15, at + 60_000], 8.0e15, at)).toBeUndefined();
  });

  it("an expiry edited only in the stored record (not the answer's valid_until): asked again once the answer's own valid_until has passed", async () => {
    const kept = await keptOnline();
    kept.storage.edit(VALUATIONS, (entries) => entries.map(([k, v, , r]) => [k, v, 253402300799000, r]));
    kept.storage.edit(CARDS, (entries) => entries.map(([k, v, , r]) => [k, v, 253402300799000, r]));
    const validUntil = Date.parse(kept.values[0]!.valid_until!);
    const { runtime, asked } = runtimeOver(kept.storage, () => validUntil + 60_000);
    const value = await runtime.valuation(requestFor(ids[0]!), 'USD', cell());
    const card = await runtime.assetCard(requestFor(ids[0]!), 'USD', cell(), true);
    expect(asked).toEqual([ids[0], `card ${ids[0]}`]);
    expect(value.asset_id).toBe(ids[0]);
    expect(card.staleSince).toBeUndefined();
  }, 30_000);

  it("an answer edited to a far-future valid_until and expiry: asked again a day after it arrived (online), shown stale since then (offline)", async () => {
    const kept = await keptOnline();
    const farFuture = '2999-01-01T00:00:00.000Z';
    kept.storage.edit<{ valid_until?: string }>(VALUATIONS, (entries) => entries.map(([k, v, , r]) => [k, { ...v, valid_until: farFuture }, Date.parse(farFuture), r]));
    kept.storage.edit<{ valuation: { valid_until?: string } }>(CARDS, (entries) =>
      entries.map(([k, v, , r]) => [k, { ...v, valuation: { ...v.valuation, valid_until: farFuture } }, Date.parse(farFuture), r]),
    );
    const later = kept.arrived + STORED_TRUST_CAP_MS + 60_000;
    const offlineCopy = kept.storage.copy();

    // Within the day its (edited) body allows, the answer is served: the cap, not the edit, bounds it.
    const early = runtimeOver(kept.storage.copy(), () => kept.arrived + 60_000);
    await early.runtime.valuation(requestFor(ids[0]!), 'USD', cell());
    expect(early.asked).toEqual([]);

    const online = runtimeOver(kept.storage, () => later);
    const value = await online.runtime.valuation(requestFor(ids[0]!), 'USD', cell());
    const card = await online.runtime.assetCard(requestFor(ids[0]!), 'USD', cell(), true);
    expect(online.asked).toEqual([ids[0], `card ${ids[0]}`]);
    expect(value.valid_until).not.toBe(farFuture);
    expect(card.value.valuation.valid_until).not.toBe(farFuture);

    // Offline: the card shows it marked stale, and a plain cell only by the user's choice, marked stale too.
    const offlineRuntime = offlineOver(offlineCopy, () => later);
    const staleCard = await offlineRuntime.assetCard(requestFor(ids[0]!), 'USD', cell(), true);
    expect(staleCard.staleSince).toBe(kept.arrived + STORED_TRUST_CAP_MS);
    await expect(offlineRuntime.valuation(requestFor(ids[0]!), 'USD', cell())).rejects.toMatchObject({ name: 'ConnectionError' });
    await offlineRuntime.setUseLastKnownWhenOffline(true);
    const stale: number[] = [];
    await offlineRuntime.valuation(requestFor(ids[0]!), 'USD', cell(stale));
    expect(stale).toEqual([kept.arrived + STORED_TRUST_CAP_MS]);
  }, 30_000);
});

describe("another asset's answer kept under a request's key", () => {
  /** The kept answers of ids[0] and ids[1] swapped: each key now holds the other asset's (well-formed, genuine) answer. */
  function swapped<V>(entries: KeptAnswer<V>[]): KeptAnswer<V>[] {
    const values = entries.map((e) => e[1]);
    return entries.map(([k, , e, r], i) => [k, values[(i + 1) % values.length]!, e, r]);
  }

  it('is never served: online the asset asked is asked for again; offline the cell has no last known value', async () => {
    const kept = await keptOnline();
    kept.storage.edit(VALUATIONS, swapped);
    kept.storage.edit(CARDS, swapped);
    const offlineCopy = kept.storage.copy();

    // Well within the answers' validity: without the check both would be served from the machine.
    const { runtime, asked } = runtimeOver(kept.storage, () => kept.arrived + 60_000);
    const value = await runtime.valuation(requestFor(ids[0]!), 'USD', cell());
    const card = await runtime.assetCard(requestFor(ids[0]!), 'USD', cell(), true);
    expect(value).toEqual(kept.values[0]);
    expect(card.value.valuation.asset_id).toBe(ids[0]);
    expect(asked).toEqual([ids[0], `card ${ids[0]}`]);

    const offline = offlineOver(offlineCopy, () => kept.arrived + 2 * STORED_TRUST_CAP_MS);
    await offline.setUseLastKnownWhenOffline(true);
    const stale: number[] = [];
    await expect(offline.assetCard(requestFor(ids[0]!), 'USD', cell(stale), true)).rejects.toMatchObject({ name: 'ConnectionError' });
    await expect(offline.valuation(requestFor(ids[0]!), 'USD', cell(stale))).rejects.toMatchObject({ name: 'ConnectionError' });
    expect(stale).toEqual([]);
  }, 30_000);

  it('a kept answer that does not match the wire schema is not served either', async () => {
    const kept = await keptOnline();
    kept.storage.edit<{ estimated_value: object }>(VALUATIONS, (entries) => entries.map(([k, v, e, r]) => [k, { ...v, estimated_value: { ...v.estimated_value, mid: 'a fortune' } }, e, r]));
    const { runtime, asked } = runtimeOver(kept.storage, () => kept.arrived + 60_000);
    expect(await runtime.valuation(requestFor(ids[1]!), 'USD', cell())).toEqual(kept.values[1]);
    expect(asked).toEqual([ids[1]]);
  }, 30_000);
});

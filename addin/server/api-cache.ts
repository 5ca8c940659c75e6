import { batchItemIndex, reindexItemError } from '../../src/client';
import type { BatchValuationItem, BatchValuationRequest, BatchValuationResult } from '../../src/wire';
import { ExpiringCache } from '../src/dispatcher/expiring-cache';
import { requestKey } from '../src/shared/request-key';
import { endOfUtcDay } from '../src/shared/validity';
import type { ProxiedCall, ProxiedOperation } from './operations';
import type { SharedAnswers } from './redis-cache';
import type { CacheEvents } from './host-metrics';
import { isUsableSharedAnswer, isUsableSharedItem } from './shared-answer-check';

/** How long a replica waits for another replica's answer to the same request (SVC_REDIS_URL), and holds its own claim. */
const CLAIM_MS = 30_000;

type Ttl = (response: unknown, now: number) => number;
const minutes = (n: number): Ttl => (_r, now) => now + n * 60_000;
const untilEndOfDay: Ttl = (_r, now) => endOfUtcDay(now);
const untilValid: Ttl = (r, now) => {
  const until = Date.parse((r as { valid_until?: string }).valid_until ?? '');
  return Number.isFinite(until) ? until : endOfUtcDay(now);
};

/**
 * What the host may answer from its cache, and for how long. Valuations live until their
 * valid_until; computations that move daily until the end of the UTC day; signals briefly;
 * reference data an hour. Portfolios (mutable) and retrieval by id are never cached.
 */
const POLICY: Partial<Record<ProxiedOperation, Ttl>> = {
  createValuation: untilValid,
  createScore: untilEndOfDay,
  scoreBreakdown: untilEndOfDay,
  batchScores: untilEndOfDay,
  createProjection: untilEndOfDay,
  analyseExit: untilEndOfDay,
  signalsOverview: minutes(1),
  listAlerts: minutes(1),
  segmentSignals: minutes(1),
  listSegments: minutes(60),
  getSegment: minutes(60),
  exitChannels: minutes(60),
};

interface CachedItem {
  item: BatchValuationItem;
  validated: boolean;
}

/**
 * One cache for every user of the host. Identical requests in flight at the same time share
 * one upstream call. Batch valuations are cached per item, so two users' different tables
 * still share the assets they have in common, and only the missing items go upstream.
 */
export class HostApiCache {
  private readonly responses: ExpiringCache<unknown>;
  private readonly items: ExpiringCache<CachedItem>;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly itemsInFlight = new Map<string, Promise<CachedItem>>();
  upstreamCalls = 0;

  constructor(
    private readonly now: () => number = Date.now,
    /** Other replicas' answers (Redis, with SVC_REDIS_URL): consulted after this host's own cache, written after each upstream answer. */
    private readonly shared?: SharedAnswers,
    /** Hits, misses and batch sizes, for the host's metrics. */
    private readonly events?: CacheEvents,
  ) {
    this.responses = new ExpiringCache(now);
    this.items = new ExpiringCache(now);
  }

  clear(): void {
    this.responses.clear();
    this.items.clear();
    void this.shared?.clear();
  }

  /** `invoke` performs the call upstream; it is given the call to make (a batch may shrink to its missing items). */
  async call(name: ProxiedOperation, call: ProxiedCall, invoke: (call: ProxiedCall) => Promise<unknown>): Promise<unknown> {
    if (name === 'batchValuations') {
      return this.batch(call.body as BatchValuationRequest, (body) => invoke({ ...call, body }) as Promise<BatchValuationResult>);
    }
    const ttl = POLICY[name];
    if (!ttl) return this.count(() => invoke(call));
    const key = requestKey({ name, params: call.params, query: [...call.query.entries()].sort(), body: call.body ?? null });
    const hit = this.responses.get(key);
    const running = hit === undefined ? this.inFlight.get(key) : undefined;
    if (hit !== undefined || running) {
      this.events?.hit('response');
      return hit ?? running;
    }
    const usable = (r: unknown) => isUsableSharedAnswer(name, call.body, r);
    const p = this.viaShared(key, usable, (r) => ttl(r, this.now()), () => this.count(() => invoke(call))).then((r) => {
      this.responses.set(key, r, ttl(r, this.now()));
      return r;
    });
    this.inFlight.set(key, p);
    try {
      return await p;
    } finally {
      this.inFlight.delete(key);
    }
  }

  /** Another replica's answer, or another replica's call awaited (one upstream call for all), or this host's own call shared after. */
  private async viaShared(key: string, usable: (r: unknown) => boolean, expiresAt: (r: unknown) => number, fetch: () => Promise<unknown>): Promise<unknown> {
    const shared = this.shared;
    if (!shared) {
      this.events?.miss('response');
      return fetch();
    }
    const landed = await this.landedElsewhere(shared, key);
    if (landed !== undefined && usable(landed)) {
      this.events?.hit('response');
      return landed;
    }
    this.events?.miss('response');
    try {
      const r = await fetch();
      await shared.set(key, r, expiresAt(r));
      return r;
    } catch (err) {
      await shared.release(key);
      throw err;
    }
  }

  /**
   * The answer another replica has or is fetching; undefined when this replica holds the claim.
   * The answer is read again after a granted claim: a replica that landed its answer between our
   * first read and our claim has released its lock already, so the claim alone would pay twice.
   */
  private async landedElsewhere(shared: SharedAnswers, key: string): Promise<unknown> {
    const [found] = await shared.getMany([key]);
    if (found !== undefined) return found;
    if (!(await shared.claim(key, CLAIM_MS))) return shared.waitFor(key, CLAIM_MS);
    const [landedMeanwhile] = await shared.getMany([key]);
    if (landedMeanwhile !== undefined) await shared.release(key);
    return landedMeanwhile;
  }

  private async count<T>(invoke: () => Promise<T>): Promise<T> {
    this.upstreamCalls++;
    return invoke();
  }

  /**
   * `forward` sends a batch request upstream. Items found in the cache or already being
   * fetched are not sent again; a refused item's error names its index in the caller's batch.
   */
  private async batch(request: BatchValuationRequest, forward: (body: BatchValuationRequest) => Promise<BatchValuationResult>): Promise<BatchValuationResult> {
    const assets = Array.isArray(request?.assets) ? request.assets : [];
    if (assets.length === 0) return this.count(() => forward(request));
    const keys = assets.map((a) => requestKey({ a, currency: request.currency ?? 'USD' }));
    const found = new Map<string, Promise<CachedItem>>();
    const missing: number[] = [];
    keys.forEach((k, i) => {
      if (found.has(k)) return;
      const hit = this.items.get(k);
      if (hit) found.set(k, Promise.resolve(hit));
      else if (this.itemsInFlight.has(k)) found.set(k, this.itemsInFlight.get(k)!);
      else {
        missing.push(i);
        found.set(k, Promise.resolve(undefined as never)); // placeholder, replaced below
      }
    });
    // Items another replica has valued: answered from Redis, not sent upstream (no cross-replica coalescing for batches).
    if (this.shared && missing.length > 0) {
      const fromShared = await this.shared.getMany(missing.map((i) => `item:${keys[i]!}`));
      missing.splice(0, missing.length, ...missing.filter((i, k) => {
        const hit = fromShared[k];
        if (!isUsableSharedItem(assets[i], hit)) return true;
        this.items.set(keys[i]!, hit, untilValid(hit.item, this.now()));
        found.set(keys[i]!, Promise.resolve(hit));
        return false;
      }));
    }
    this.events?.hit('item', found.size - missing.length);
    this.events?.miss('item', missing.length);
    let upstream: BatchValuationResult | undefined;
    if (missing.length > 0) {
      this.events?.upstreamBatch(missing.length);
      const sent = this.count(() => forward({ ...request, assets: missing.map((i) => assets[i]!) }));
      missing.forEach((i, k) => {
        const p = sent.then((r) => {
          const item = r.valuations[k];
          if (!item) throw new Error(`The service answered ${r.valuations.length} valuations for ${missing.length} assets.`);
          const cached = { item, validated: r.market_validated };
          this.items.set(keys[i]!, cached, untilValid(item, this.now()));
          void this.shared?.set(`item:${keys[i]!}`, cached, untilValid(item, this.now()));
          return cached;
        });
        p.catch(() => undefined).finally(() => this.itemsInFlight.delete(keys[i]!));
        this.itemsInFlight.set(keys[i]!, p);
        found.set(keys[i]!, p);
      });
      try {
        upstream = await sent;
      } catch (err) {
        throw remapItemError(err, missing);
      }
    }
    const items = await Promise.all(keys.map((k) => found.get(k)!));
    return {
      batch_id: upstream && missing.length === assets.length ? upstream.batch_id : `batch_host_${this.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
      count: items.length,
      valuations: items.map((c) => c.item),
      total_value: items.reduce((sum, c) => sum + c.item.estimated_value.mid, 0),
      market_validated: items.every((c) => c.validated),
      generated_at: upstream?.generated_at ?? new Date(this.now()).toISOString(),
    };
  }
}

/** "assets[2].segment" of the forwarded subset → the same item's index in the caller's batch. */
function remapItemError(err: unknown, sentIndexes: number[]): unknown {
  const k = batchItemIndex(err);
  const original = k === undefined ? undefined : sentIndexes[k];
  return original === undefined ? err : reindexItemError(err, original);
}

import { KEEP_EXPIRED_MS, trustedExpiry, type AnswerStore } from './answer-store';
import { ExpiringCache } from './expiring-cache';
import { CancelledError, type BatchFunction, type Outcome } from './outcome';

export interface CoalescingQueueOptions<Req, Res> {
  /** One upstream call for up to `maxBatch` distinct requests. */
  batch: BatchFunction<Req, Res>;
  /** Identical requests share a key and are asked once. */
  keyOf: (request: Req) => string;
  /** Upstream batch size limit (the service takes 50). */
  maxBatch?: number;
  /** The window stays open while invocations keep arriving this close together... */
  idleMs?: number;
  /** ...but never longer than this after the first one queued. */
  maxWaitMs?: number;
  /** When an answer stops being valid (epoch ms); the cache serves it until then. */
  expiresAt?: (response: Res, now: number) => number;
  now?: () => number;
  /** Answers kept on the machine across sessions: loaded before the first request is answered, saved after each call, cleared with the cache. */
  store?: AnswerStore<Res>;
  /** How a kept answer is checked before it is served (answer-check.ts); without it, kept answers are taken as stored. */
  check?: AnswerCheck<Req, Res>;
}

/**
 * The checks an answer from the network passes, for answers read back from the machine:
 * `parse` is the wire schema (undefined when the kept value does not match it), `fits` whether
 * an answer is for the request it is served to (the asset id asked).
 */
export interface AnswerCheck<Req, Res> {
  parse(value: unknown): Res | undefined;
  fits(request: Req, value: Res): boolean;
}

export interface QueueStats {
  /** Invocations received. */
  requests: number;
  /** Answered from the cache without a call. */
  cacheHits: number;
  /** Joined an identical request already queued or in flight. */
  joined: number;
  /** Upstream batch calls made. */
  batchCalls: number;
  /** Items sent upstream. */
  itemsSent: number;
}

interface Waiter<Res> {
  resolve(value: Res): void;
  reject(error: Error): void;
}

interface Entry<Req, Res> {
  key: string;
  request: Req;
  waiters: Set<Waiter<Res>>;
  state: 'queued' | 'sent';
  batch?: { controller: AbortController; entries: Entry<Req, Res>[] };
}

const DEFAULT_TTL_MS = 15 * 60_000;
/**
 * Excel hands a recalculation's invocations over in bursts; a pause this long means the burst
 * is over. Only the last, partial batch waits for it: full batches of 50 leave at once.
 */
const DEFAULT_IDLE_MS = 50;
/** A steady trickle that never pauses still gets its partial batch sent after this. */
const DEFAULT_MAX_WAIT_MS = 1_000;

/**
 * The shared queue behind every cell: invocations arriving within a short window are
 * gathered, identical ones are asked once, and the distinct ones go upstream in calls of
 * at most `maxBatch`. Full batches leave at once; the remainder leaves when the window
 * closes. Every waiter settles: with its own item's answer or error, with the call's
 * error when the whole call fails, or with CancelledError when its cell was cancelled.
 */
export class CoalescingQueue<Req, Res> {
  private readonly cache: ExpiringCache<Res>;
  private readonly pending = new Map<string, Entry<Req, Res>>();
  private queued: Entry<Req, Res>[] = [];
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private firstQueuedAt = 0;
  private readonly maxBatch: number;
  private readonly idleMs: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  readonly stats: QueueStats = { requests: 0, cacheHits: 0, joined: 0, batchCalls: 0, itemsSent: 0 };

  constructor(private readonly options: CoalescingQueueOptions<Req, Res>) {
    this.maxBatch = options.maxBatch ?? 50;
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    this.now = options.now ?? Date.now;
    // Expired answers are remembered a while longer: the last known answer, for when the service cannot be reached.
    this.cache = new ExpiringCache<Res>(this.now, 50_000, KEEP_EXPIRED_MS);
  }

  private loading: Promise<void> | undefined;
  private loaded = false;
  /** Bumped by clearCache, so a load still reading cannot bring back what was cleared. */
  private generation = 0;

  /**
   * Reads what is kept on the machine, once, at the first request (not at construction: in
   * Excel the storage is defined only once the runtime has loaded). Requests arriving meanwhile
   * wait for that one read; later ones never wait.
   */
  private load(): Promise<void> {
    const store = this.options.store;
    if (!store) {
      this.loaded = true;
      return Promise.resolve();
    }
    const generation = this.generation;
    this.loading ??= store.load(this.now()).then((entries) => {
      if (generation === this.generation) {
        // Answers that arrived while reading are newer than the kept ones: keep them.
        for (const entry of entries) if (!this.cache.lastKnown(entry[0])) this.restore(entry);
      }
      this.loaded = true;
    });
    return this.loading;
  }

  /**
   * A kept answer into the cache, re-checked: its value against the wire schema, its expiry
   * recomputed from the value and when it arrived (never taken from the stored field alone).
   */
  private restore(entry: Parameters<typeof trustedExpiry>[0]): void {
    const [key, raw, , receivedAt] = entry;
    const check = this.options.check;
    const value = check ? check.parse(raw) : (raw as Res);
    if (value === undefined) return;
    const expiresAt = trustedExpiry(entry, this.expiryOf(value, receivedAt), this.now());
    if (expiresAt !== undefined) this.cache.set(key, value, expiresAt, receivedAt);
  }

  /** When an answer that arrived at `receivedAt` stops being valid. */
  private expiryOf(value: Res, receivedAt: number): number {
    return this.options.expiresAt?.(value, receivedAt) ?? receivedAt + DEFAULT_TTL_MS;
  }

  /** What the cache holds for `request`, valid or not, if it is an answer to that request (one that is not is forgotten). */
  private known(request: Req, key = this.options.keyOf(request)): { value: Res; expiresAt: number } | undefined {
    const hit = this.cache.lastKnown(key);
    if (hit && this.options.check && !this.options.check.fits(request, hit.value)) {
      this.cache.delete(key);
      return undefined;
    }
    return hit && { value: hit.value, expiresAt: hit.expiresAt };
  }

  /** The answer for `request` if still valid. */
  private current(request: Req, key?: string): Res | undefined {
    const hit = this.known(request, key);
    return hit && hit.expiresAt > this.now() ? hit.value : undefined;
  }

  /** The cached answer, if still valid: what a formula preview may show without a call. */
  peek(request: Req): Res | undefined {
    if (!this.loaded) void this.load();
    return this.current(request);
  }

  /** The answer last received for `request`, even past its validity (remembered KEEP_EXPIRED_MS), with its expiry. */
  lastKnown(request: Req): { value: Res; expiresAt: number } | undefined {
    return this.known(request);
  }

  request(request: Req, signal?: AbortSignal): Promise<Res> {
    if (!this.loaded) return this.load().then(() => this.requestNow(request, signal));
    return this.requestNow(request, signal);
  }

  private requestNow(request: Req, signal?: AbortSignal): Promise<Res> {
    this.stats.requests++;
    if (signal?.aborted) return Promise.reject(new CancelledError());
    const key = this.options.keyOf(request);
    const cached = this.current(request, key);
    if (cached !== undefined) {
      this.stats.cacheHits++;
      return Promise.resolve(cached);
    }
    let entry = this.pending.get(key);
    if (entry) this.stats.joined++;
    else {
      entry = { key, request, waiters: new Set(), state: 'queued' };
      this.pending.set(key, entry);
      this.enqueue(entry);
    }
    const target = entry;
    return new Promise<Res>((resolve, reject) => {
      const waiter: Waiter<Res> = {
        resolve: (v) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(v);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      };
      const onAbort = () => {
        if (!target.waiters.delete(waiter)) return;
        reject(new CancelledError());
        this.abandonIfUnwanted(target);
      };
      target.waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Forgets every cached answer (SVC.REFRESH, the task pane's Refresh button). */
  clearCache(): Promise<void> {
    this.generation++;
    this.cache.clear();
    this.saved = this.options.store?.clear() ?? Promise.resolve();
    return this.saved;
  }

  private saveScheduled = false;
  private saved: Promise<void> = Promise.resolve();

  /** One write per batch call's answers, not one per item. */
  private scheduleSave(): void {
    const store = this.options.store;
    if (!store || this.saveScheduled) return;
    this.saveScheduled = true;
    this.saved = new Promise<void>((resolve) =>
      queueMicrotask(() => {
        this.saveScheduled = false;
        void store.save(this.cache.snapshot(), this.now()).then(resolve);
      }),
    );
  }

  /** Resolves when what was last asked of the machine's storage (a save or a clear) is written. */
  storeWritten(): Promise<void> {
    return this.saved;
  }

  get cacheSize(): number {
    return this.cache.size;
  }

  private enqueue(entry: Entry<Req, Res>): void {
    if (this.queued.length === 0) this.firstQueuedAt = this.now();
    this.queued.push(entry);
    while (this.queued.length >= this.maxBatch) this.send(this.queued.splice(0, this.maxBatch));
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.queued.length === 0) return;
    const untilCap = this.firstQueuedAt + this.maxWaitMs - this.now();
    this.idleTimer = setTimeout(() => this.flush(), Math.max(0, Math.min(this.idleMs, untilCap)));
  }

  private flush(): void {
    this.idleTimer = undefined;
    const all = this.queued;
    this.queued = [];
    for (let i = 0; i < all.length; i += this.maxBatch) this.send(all.slice(i, i + this.maxBatch));
  }

  /** A cell was cancelled: drop its request if nobody else waits for it. */
  private abandonIfUnwanted(entry: Entry<Req, Res>): void {
    if (entry.waiters.size > 0) return;
    this.pending.delete(entry.key);
    if (entry.state === 'queued') {
      this.queued = this.queued.filter((e) => e !== entry);
      if (this.queued.length === 0) this.scheduleFlush();
      return;
    }
    const batch = entry.batch;
    if (batch && batch.entries.every((e) => e.waiters.size === 0)) batch.controller.abort();
  }

  private send(entries: Entry<Req, Res>[]): void {
    if (entries.length === 0) return;
    const controller = new AbortController();
    const batch = { controller, entries };
    for (const e of entries) {
      e.state = 'sent';
      e.batch = batch;
    }
    this.stats.batchCalls++;
    this.stats.itemsSent += entries.length;
    void this.run(entries, controller);
  }

  private async run(entries: Entry<Req, Res>[], controller: AbortController): Promise<void> {
    let outcomes: Outcome<Res>[];
    try {
      outcomes = await this.options.batch(
        entries.map((e) => e.request),
        controller.signal,
      );
      if (outcomes.length !== entries.length) {
        throw new Error(`The service answered ${outcomes.length} items for ${entries.length} requested.`);
      }
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      for (const e of entries) this.settle(e, { ok: false, error });
      return;
    }
    entries.forEach((e, i) => this.settle(e, outcomes[i]!));
  }

  private settle(entry: Entry<Req, Res>, outcome: Outcome<Res>): void {
    if (this.pending.get(entry.key) === entry) this.pending.delete(entry.key);
    if (outcome.ok) {
      const now = this.now();
      this.cache.set(entry.key, outcome.value, this.expiryOf(outcome.value, now), now);
      this.scheduleSave();
    }
    const waiters = [...entry.waiters];
    entry.waiters.clear();
    for (const w of waiters) {
      if (outcome.ok) w.resolve(outcome.value);
      else w.reject(outcome.error);
    }
  }
}

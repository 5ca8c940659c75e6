import type {
  Alert,
  BatchValuationItem,
  Breakdown,
  Currency,
  ExitStrategy,
  HistoryQuery,
  HistoryResponse,
  PortfolioPerformanceQuery,
  PortfolioPerformanceResponse,
  Projection,
  SegmentDetail,
  SegmentId,
  SegmentSignals,
  URGENCIES,
  Valuation,
  ValuationRequest,
} from '../../../src/wire';
import { CoalescingQueue, type QueueStats } from '../dispatcher/coalescing-queue';
import { singleCallQueue } from '../dispatcher/single-call-queue';
import { Poller } from '../dispatcher/poller';
import { AnswerStore } from '../dispatcher/answer-store';
import { StorageBudget, type MachineStorage } from '../dispatcher/machine-storage';
import type { Outcome } from '../dispatcher/outcome';
import type { RuntimeBackend } from './backend';
import { checkBreakdown, checkCard, checkExit, checkProjection, checkValuation } from './answer-check';
import { readUseLastKnown, writeUseLastKnown } from './offline-preference';
import { requestKey } from './request-key';
import { StaleCells } from './stale-cells';
import { isUnreachable } from './unreachable';
import { endOfUtcDay } from './validity';
import { addinTranslator } from './display-language';

/** Where answers come from, as an asset card says it: the service's host and whether it is the sandbox. */
export interface ServiceSource {
  service: string;
  sandbox: boolean;
}

/** The part of an invocation the runtime needs (functions/settle.ts Call). */
export interface CallContext {
  signal: AbortSignal;
  preview: boolean;
  /**
   * Given by callers that can say a value is stale (a cell, which the pane counts): when the
   * service cannot be reached and the user chose "use last known values when offline", the
   * last known answer is served and this is told when it stopped being valid (epoch ms).
   * Without it (the pane's Value selection writes plain numbers) an unreachable service is an error.
   */
  servedStale?: (staleSince: number) => void;
}

/** An asset card's answer: the valuation and the service it came from, kept together. */
export interface CardAnswer {
  valuation: Valuation;
  source: ServiceSource;
}

/** An answer, and when it is the last known one served while the service is unreachable, since when it is stale (epoch ms). */
export interface Answer<V> {
  value: V;
  staleSince?: number;
}

export interface RuntimeOptions {
  /** Coalescing window: idle gap and cap (ms). */
  idleMs?: number;
  maxWaitMs?: number;
  now?: () => number;
  /** The service the answers come from (the host's status), for asset cards' Source. */
  source?: () => Promise<ServiceSource>;
  /** The machine's storage for answers kept across sessions and the offline setting (in the browser safe-storage.ts chooses OfficeRuntime.storage, localStorage or memory); none in tests unless given. */
  storage?: MachineStorage;
}

const SIGNALS_TTL_MS = 5 * 60_000;
const SEGMENT_TTL_MS = 60 * 60_000;
/** Month-ends change once a month: a few minutes keeps one answer per recalculation without hiding a fresh import for long (Refresh clears it). */
const HISTORY_TTL_MS = 5 * 60_000;

/** Formula value preview shows what is cached and never spends a call. */
export class PreviewNotCachedError extends Error {
  override name = 'PreviewNotCachedError';
  constructor() {
    super(addinTranslator().t('addin.cell_preview'));
  }
}

type ProjectionKey = { asset_id: string; current_value: number; currency: Currency };
type CardKey = { request: ValuationRequest; currency: Currency };
type ExitKey = { asset_id: string; current_value: number; urgency: (typeof URGENCIES)[number] };

/**
 * Everything the cells share in one runtime (the shared runtime holds the functions and the
 * task pane together): one coalescing valuation queue per currency, a de-duplicating,
 * caching queue per other operation, and one alerts schedule.
 */
export class AddinRuntime {
  private readonly valuationQueues = new Map<Currency, CoalescingQueue<ValuationRequest, BatchValuationItem>>();
  private readonly breakdowns: CoalescingQueue<string, Breakdown>;
  private readonly projections: CoalescingQueue<ProjectionKey, Projection>;
  private readonly signals: CoalescingQueue<SegmentId, SegmentSignals>;
  private readonly segments: CoalescingQueue<SegmentId, SegmentDetail>;
  private readonly exits: CoalescingQueue<ExitKey, ExitStrategy>;
  private readonly cards: CoalescingQueue<CardKey, CardAnswer>;
  private readonly histories: CoalescingQueue<HistoryQuery, HistoryResponse>;
  private readonly performances: CoalescingQueue<PortfolioPerformanceQuery, PortfolioPerformanceResponse>;
  private readonly alertsPoller: Poller<Alert[]>;
  private sourcePromise: Promise<ServiceSource> | undefined;
  private readonly now: () => number;
  private readonly budget = new StorageBudget();
  private useLastKnownSetting: Promise<boolean> | undefined;
  /** The cells showing a last known answer because the service could not be reached (the pane shows the count). */
  readonly staleCells = new StaleCells();

  constructor(
    readonly backend: RuntimeBackend,
    private readonly options: RuntimeOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    const now = this.now;
    const untilEndOfDay = (_: unknown, t: number) => endOfUtcDay(t);
    const kept = <V>(namespace: string) => this.store<V>(namespace);
    this.breakdowns = singleCallQueue({ call: (id, s) => backend.breakdown(id, s), keyOf: (id) => id, expiresAt: untilEndOfDay, now, store: kept('breakdowns'), check: checkBreakdown });
    this.projections = singleCallQueue({ call: (r: ProjectionKey, s) => backend.projection(r, s), keyOf: requestKey, expiresAt: untilEndOfDay, now, store: kept('projections'), check: checkProjection });
    this.signals = singleCallQueue({ call: (seg, s) => backend.segmentSignals(seg, s), keyOf: (seg) => seg, expiresAt: (_, t) => t + SIGNALS_TTL_MS, now });
    this.segments = singleCallQueue({ call: (seg, s) => backend.segmentDetail(seg, s), keyOf: (seg) => seg, expiresAt: (_, t) => t + SEGMENT_TTL_MS, now });
    this.exits = singleCallQueue({ call: (r: ExitKey, s) => backend.exit(r, s), keyOf: requestKey, expiresAt: untilEndOfDay, now, store: kept('exits'), check: checkExit });
    // A card keeps the service it came from with its answer: a stale card still names its true source.
    this.cards = singleCallQueue({
      call: async (k: CardKey, s) => {
        const [valuation, source] = await Promise.all([backend.valuate(k.request, k.currency, s), this.serviceSource()]);
        return { valuation, source };
      },
      keyOf: requestKey,
      expiresAt: (c, t) => validUntil(c.valuation.valid_until, t),
      now,
      store: kept('cards:v2'),
      check: checkCard,
    });
    // One host call per distinct history asked (not batched: the service is not involved).
    this.histories = singleCallQueue({ call: (q: HistoryQuery, s) => backend.history(q, s), keyOf: requestKey, expiresAt: (_, t) => t + HISTORY_TTL_MS, now });
    // The same for a period's return: it changes when a month-end is recorded, like the history.
    this.performances = singleCallQueue({ call: (q: PortfolioPerformanceQuery, s) => backend.performance(q, s), keyOf: requestKey, expiresAt: (_, t) => t + HISTORY_TTL_MS, now });
    this.alertsPoller = new Poller(() => backend.alerts());
  }

  valuation(request: ValuationRequest, currency: Currency, call: CallContext): Promise<BatchValuationItem> {
    return this.ask(this.valuationQueue(currency), request, call);
  }

  /**
   * One asset's full valuation and its source, for its card (the batch answer lacks brand,
   * model, segment and as-of). A card always says when it is stale, so when the service cannot
   * be reached it shows the last known answer, whatever the setting for plain cells
   * (`asCard` false: the valuation row of hosts without cards, a plain cell).
   */
  async assetCard(request: ValuationRequest, currency: Currency, call: CallContext, asCard: boolean): Promise<Answer<CardAnswer>> {
    // Where Excel cannot show cards, the row is a plain cell: last known only by the user's choice.
    const a = await this.answer(this.cards, { request, currency }, call, asCard);
    if (a.staleSince !== undefined) call.servedStale?.(a.staleSince);
    return a;
  }

  /** "Use last known values when offline" for plain cells (persisted on the machine). */
  useLastKnownWhenOffline(): Promise<boolean> {
    const storage = this.options.storage;
    this.useLastKnownSetting ??= storage ? readUseLastKnown(storage) : Promise.resolve(false);
    return this.useLastKnownSetting;
  }

  async setUseLastKnownWhenOffline(on: boolean): Promise<void> {
    this.useLastKnownSetting = Promise.resolve(on);
    if (this.options.storage) await writeUseLastKnown(this.options.storage, on);
  }

  /** The service behind the host, asked once per runtime (a failed ask is asked again next time). */
  serviceSource(): Promise<ServiceSource> {
    if (!this.options.source) return Promise.resolve({ service: addinTranslator().t('addin.unknown_service'), sandbox: false });
    this.sourcePromise ??= this.options.source().catch((err: unknown) => {
      this.sourcePromise = undefined;
      throw err;
    });
    return this.sourcePromise;
  }

  breakdown(assetId: string, call: CallContext): Promise<Breakdown> {
    return this.ask(this.breakdowns, assetId, call);
  }

  projection(assetId: string, currentValue: number, currency: Currency, call: CallContext): Promise<Projection> {
    return this.ask(this.projections, { asset_id: assetId, current_value: currentValue, currency }, call);
  }

  segmentSignals(segment: SegmentId, call: CallContext): Promise<SegmentSignals> {
    return this.ask(this.signals, segment, call);
  }

  segmentDetail(segment: SegmentId, call: CallContext): Promise<SegmentDetail> {
    return this.ask(this.segments, segment, call);
  }

  exit(assetId: string, currentValue: number, urgency: (typeof URGENCIES)[number], call: CallContext): Promise<ExitStrategy> {
    return this.ask(this.exits, { asset_id: assetId, current_value: currentValue, urgency }, call);
  }

  /** A portfolio's or an asset's recorded month-ends (SVC.HISTORY). */
  history(query: HistoryQuery, call: CallContext): Promise<HistoryResponse> {
    return this.ask(this.histories, query, call);
  }

  /** A portfolio's return over a standard period (SVC.PERFORMANCE). */
  performance(query: PortfolioPerformanceQuery, call: CallContext): Promise<PortfolioPerformanceResponse> {
    return this.ask(this.performances, query, call);
  }

  /** Streaming cells: one poll per interval for all of them; returns the unsubscribe. */
  subscribeAlerts(intervalMs: number, listener: (result: Outcome<Alert[]>) => void): () => void {
    return this.alertsPoller.subscribe(intervalMs, listener);
  }

  /** The alerts the streaming cells last received, if any: what a formula preview may show. */
  latestAlerts(): Alert[] | undefined {
    const latest = this.alertsPoller.latest;
    return latest?.ok ? latest.value : undefined;
  }

  /** Forgets every cached answer and re-polls alerts (SVC.REFRESH, the task pane's Refresh). */
  refresh(): Promise<void> {
    const cleared = Promise.all(this.queues().map((q) => q.clearCache())).then(() => undefined);
    void this.alertsPoller.refreshNow();
    return cleared;
  }

  /** Upstream valuation batch calls and how the cells were served, for the task pane and the benchmark. */
  valuationStats(): QueueStats {
    const total: QueueStats = { requests: 0, cacheHits: 0, joined: 0, batchCalls: 0, itemsSent: 0 };
    for (const q of this.valuationQueues.values()) {
      for (const k of Object.keys(total) as (keyof QueueStats)[]) total[k] += q.stats[k];
    }
    return total;
  }

  private valuationQueue(currency: Currency): CoalescingQueue<ValuationRequest, BatchValuationItem> {
    let q = this.valuationQueues.get(currency);
    if (!q) {
      q = new CoalescingQueue<ValuationRequest, BatchValuationItem>({
        batch: (items, signal) => this.backend.valueBatch(items, currency, signal),
        keyOf: requestKey,
        maxBatch: 50,
        idleMs: this.options.idleMs,
        maxWaitMs: this.options.maxWaitMs,
        now: this.now,
        expiresAt: (item, t) => validUntil(item.valid_until, t),
        store: this.store<BatchValuationItem>(`valuations:${currency}`),
        check: checkValuation,
      });
      this.valuationQueues.set(currency, q);
    }
    return q;
  }

  private queues(): CoalescingQueue<never, unknown>[] {
    return [...this.valuationQueues.values(), this.breakdowns, this.projections, this.signals, this.segments, this.exits, this.cards, this.histories, this.performances] as unknown as CoalescingQueue<
      never,
      unknown
    >[];
  }

  private store<V>(namespace: string): AnswerStore<V> | undefined {
    return this.options.storage ? new AnswerStore<V>(this.options.storage, namespace, { budget: this.budget }) : undefined;
  }

  /** A plain cell's answer: the last known one only where the caller can say so and the user chose it. */
  private async ask<Req, Res>(queue: CoalescingQueue<Req, Res>, request: Req, call: CallContext): Promise<Res> {
    const a = await this.answer(queue, request, call, false);
    if (a.staleSince !== undefined) call.servedStale?.(a.staleSince);
    return a.value;
  }

  private async answer<Req, Res>(queue: CoalescingQueue<Req, Res>, request: Req, call: CallContext, alwaysLastKnown: boolean): Promise<Answer<Res>> {
    if (call.preview) {
      const cached = queue.peek(request);
      if (cached === undefined) throw new PreviewNotCachedError();
      return { value: cached };
    }
    try {
      return { value: await queue.request(request, call.signal) };
    } catch (err) {
      // Offline, honestly: only when the host or the service cannot be reached, never for a refusal (unknown asset, tier, budget).
      if (!isUnreachable(err)) throw err;
      const known = queue.lastKnown(request);
      if (!known) throw err;
      const allowed = alwaysLastKnown || (call.servedStale !== undefined && (await this.useLastKnownWhenOffline()));
      if (!allowed) throw err;
      return { value: known.value, staleSince: known.expiresAt };
    }
  }
}

/** An answer is served until its own valid_until; without one, to the end of the UTC day. */
function validUntil(iso: string | undefined, now: number): number {
  const until = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(until) ? until : endOfUtcDay(now);
}

/**
 * One runtime per page, held on the page's global object: the functions and the task pane are
 * separate bundles (functions.js, taskpane.js) in the one shared-runtime page, each with its own
 * copy of this module, and they must share the cells' queues, caches and stale-cell count (the
 * pane's Refresh, its offline setting and count act on what the cells use).
 */
const PAGE_RUNTIME = '__svcAddinRuntime';
type PageGlobal = { [PAGE_RUNTIME]?: AddinRuntime };

/** The runtime the functions use; the bundle's entry installs it before Excel calls anything. */
export function getRuntime(): AddinRuntime {
  const current = getRuntimeIfReady();
  if (!current) throw new Error(addinTranslator().t('addin.still_starting'));
  return current;
}

export function setRuntime(runtime: AddinRuntime | undefined): void {
  (globalThis as PageGlobal)[PAGE_RUNTIME] = runtime;
}

export function getRuntimeIfReady(): AddinRuntime | undefined {
  return (globalThis as PageGlobal)[PAGE_RUNTIME];
}

import { Gauge, Histogram } from 'prom-client';
import { ServiceMetrics, Tally } from '../../src/ops';

/** Where a browser request went, as a label (never the path itself: unbounded and it may name assets). */
export type HostRoute = 'api' | 'status' | 'budget' | 'refresh' | 'report' | 'history' | 'performance' | 'static' | 'health' | 'other';

/** The cache's and the fair share's events, as HostApiCache and FairShareGate report them. */
export interface CacheEvents {
  /** A response or a batch item answered from this host's cache, another replica's (Redis), or a call already in flight. */
  hit(kind: 'response' | 'item', count?: number): void;
  /** One that had to go upstream. */
  miss(kind: 'response' | 'item', count?: number): void;
  /** An upstream batch valuation of this many items (the cells coalesced into one call). */
  upstreamBatch(items: number): void;
}

/**
 * The add-in host's series on top of the service's (src/ops): requests by route and status,
 * requests in flight, the shared cache's hits and misses, cells per upstream call, users'
 * sign-ins by reason and the fair share's waits. No label carries a user: user ids are
 * unbounded and personal; who waited is in the audit log.
 */
export class HostMetrics extends ServiceMetrics implements CacheEvents {
  // The per-request series are tallies (src/ops/tally.ts): the hot path is a Map update.
  private readonly requests: Tally<'route' | 'status'>;
  private readonly cacheHits: Tally<'kind'>;
  private readonly cacheMisses: Tally<'kind'>;
  private readonly cells: Tally<never>;
  private readonly userSignIns: Tally<'result' | 'reason'>;
  private readonly batchItems: Histogram;
  readonly fairShareWait: Histogram;
  private handling = 0;

  constructor(usersWaiting: () => number) {
    super();
    const registry = this.registry;
    const registers = [registry];
    this.requests = new Tally({ name: 'addin_http_requests_total', help: "Requests to the add-in host, by route (api, status, budget, refresh, report, history, performance, static, health, other) and the host's answer status.", labelNames: ['route', 'status'], registry });
    this.cacheHits = new Tally({ name: 'addin_cache_hits_total', help: "Answers (kind=response) and batch items (kind=item) served from the host's shared cache, another replica's, or a call already in flight.", labelNames: ['kind'], registry });
    this.cacheMisses = new Tally({ name: 'addin_cache_misses_total', help: 'Answers and batch items that had to be asked of the service.', labelNames: ['kind'], registry });
    this.cells = new Tally({ name: 'addin_cells_requested_total', help: "Assets the add-in's cells asked of the host (a batch's items, or 1 for a single-asset operation).", labelNames: [], registry });
    this.userSignIns = new Tally({ name: 'addin_user_sign_ins_total', help: "Users' sign-ins to the host (Entra token or deployment key): accepted, or refused by reason.", labelNames: ['result', 'reason'], registry });
    this.batchItems = new Histogram({ name: 'addin_cells_per_upstream_call', help: "Items in each batch valuation the host sent upstream: the cells coalesced into one call.", buckets: [1, 2, 5, 10, 20, 30, 40, 50], registers });
    this.fairShareWait = new Histogram({ name: 'addin_fair_share_wait_seconds', help: "How long a user's call waited for its turn in the account's budget (round-robin between users).", buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60], registers });
    const inFlight = () => this.handling;
    new Gauge({
      name: 'addin_http_requests_in_flight',
      help: 'Requests the host is handling now.',
      registers,
      collect() {
        this.set(inFlight());
      },
    });
    new Gauge({
      name: 'addin_fair_share_users_waiting',
      help: 'Users with at least one call waiting for its turn.',
      registers,
      collect() {
        this.set(usersWaiting());
      },
    });
  }

  /** A request arrived (true) or its answer went (false). */
  handlingRequest(started: boolean): void {
    this.handling += started ? 1 : -1;
  }

  requestDone(route: string, status: number): void {
    this.requests.add(1, route, String(status));
  }

  signIn(result: 'accepted' | 'refused', reason: string): void {
    this.userSignIns.add(1, result, reason);
  }

  hit(kind: 'response' | 'item', count = 1): void {
    this.cacheHits.add(count, kind);
  }

  miss(kind: 'response' | 'item', count = 1): void {
    this.cacheMisses.add(count, kind);
  }

  upstreamBatch(items: number): void {
    this.batchItems.observe(items);
  }

  cellsRequested(n: number): void {
    this.cells.add(n);
  }
}

import type {
  BatchScoreRequest,
  BatchValuationRequest,
  BreakdownRequest,
  ExitRequest,
  PortfolioRequest,
  PortfolioUpdateRequest,
  ProjectionRequest,
  ScoreRequest,
  ValuationRequest,
} from '../wire';
import { expectAsset } from './asset-check';
import type { RequestOptions, Transport } from './transport';
import { checkId, checkSegment } from './validate';

/**
 * The typed methods, one per operation of OPERATIONS. Each returns the operation's wire
 * response exactly as the contract defines it (ResponseOf<name>), validated. All are async,
 * so a bad argument is a rejected promise, never a synchronous throw.
 */
export class Valuations {
  constructor(private readonly t: Transport) {}
  /** Refused with AssetMismatchError when the answer is for another segment than asked. */
  async create(req: ValuationRequest, opts?: RequestOptions) {
    const r = await this.t.call('createValuation', { body: req }, opts);
    return expectAsset(r, req, r.asset_id, 'createValuation');
  }
  async get(id: string, opts?: RequestOptions) {
    return this.t.call('getValuation', { params: { id: checkId(id, 'getValuation') } }, opts);
  }
  /** At most 50 assets; for more, use client.valueAll. */
  async batch(req: BatchValuationRequest, opts?: RequestOptions) {
    return this.t.call('batchValuations', { body: req }, opts);
  }
}

export class Scores {
  constructor(private readonly t: Transport) {}
  /** Refused with AssetMismatchError when the answer is for another asset than the one named. */
  async create(req: ScoreRequest, opts?: RequestOptions) {
    const r = await this.t.call('createScore', { body: req }, opts);
    return expectAsset(r, req, r.score.asset_id, 'createScore');
  }
  async breakdown(req: BreakdownRequest, opts?: RequestOptions) {
    const r = await this.t.call('scoreBreakdown', { body: req }, opts);
    return expectAsset(r, req, r.breakdown.asset_id, 'scoreBreakdown');
  }
  /** At most 50 assets; for more, use client.scoreAll. */
  async batch(req: BatchScoreRequest, opts?: RequestOptions) {
    return this.t.call('batchScores', { body: req }, opts);
  }
}

export class Projections {
  constructor(private readonly t: Transport) {}
  async create(req: ProjectionRequest, opts?: RequestOptions) {
    const r = await this.t.call('createProjection', { body: req }, opts);
    return expectAsset(r, req, r.projection.asset_id, 'createProjection');
  }
  async get(id: string, opts?: RequestOptions) {
    return this.t.call('getProjection', { params: { id: checkId(id, 'getProjection') } }, opts);
  }
}

export class Signals {
  constructor(private readonly t: Transport) {}
  async overview(opts?: RequestOptions) {
    return this.t.call('signalsOverview', {}, opts);
  }
  /** Accepts a segment id or what a person typed ("Watches", "WAT"). */
  async segment(segment: string, opts?: RequestOptions) {
    return this.t.call('segmentSignals', { params: { segment: checkSegment(segment, 'segmentSignals') } }, opts);
  }
  async alerts(opts?: RequestOptions) {
    return this.t.call('listAlerts', {}, opts);
  }
}

export class Portfolios {
  constructor(private readonly t: Transport) {}
  /** Not idempotent: never repeated after a failure that may have reached the service. */
  async create(req: PortfolioRequest, opts?: RequestOptions) {
    return this.t.call('createPortfolio', { body: req }, opts);
  }
  async get(id: string, opts?: RequestOptions) {
    return this.t.call('getPortfolio', { params: { id: checkId(id, 'getPortfolio') } }, opts);
  }
  async update(id: string, body: PortfolioUpdateRequest, opts?: RequestOptions) {
    return this.t.call('updatePortfolio', { params: { id: checkId(id, 'updatePortfolio') }, body }, opts);
  }
  async performance(id: string, opts?: RequestOptions) {
    return this.t.call('portfolioPerformance', { params: { id: checkId(id, 'portfolioPerformance') } }, opts);
  }
}

export class Exits {
  constructor(private readonly t: Transport) {}
  async analyse(req: ExitRequest, opts?: RequestOptions) {
    const r = await this.t.call('analyseExit', { body: req }, opts);
    return expectAsset(r, req, r.exit_strategy.asset_id, 'analyseExit');
  }
  /** All sale channels, or those serving one segment. */
  async channels(filter: { segment?: string } = {}, opts?: RequestOptions) {
    const segment = filter.segment === undefined ? undefined : checkSegment(filter.segment, 'exitChannels');
    return this.t.call('exitChannels', { query: { segment } }, opts);
  }
}

export class Segments {
  constructor(private readonly t: Transport) {}
  async list(opts?: RequestOptions) {
    return this.t.call('listSegments', {}, opts);
  }
  async get(segment: string, opts?: RequestOptions) {
    return this.t.call('getSegment', { params: { segment: checkSegment(segment, 'getSegment') } }, opts);
  }
}

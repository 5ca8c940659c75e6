import type {
  Alert,
  Breakdown,
  CanonicalAsset,
  Currency,
  ExitChannel,
  ExitStrategy,
  Horizon,
  Performance,
  PortfolioAnalytics,
  PortfolioAssetInput,
  Projection,
  ScoreObject,
  SegmentDetail,
  SegmentId,
  SegmentList,
  SegmentSignals,
  SignalsOverview,
  Valuation,
} from '../../wire';

/**
 * The contract between the sandbox's HTTP layer (src/sandbox/server) and its market model
 * (src/sandbox/market). The model is pure and deterministic: the same inputs on the same
 * `day` give the same answer. The HTTP layer owns ids, storage, auth and limits; the model
 * owns every number.
 */
export interface MarketContext {
  /** The valuation day, YYYY-MM-DD (UTC): prices move from one day to the next. */
  day: string;
  /** Wall-clock time for generated_at / valid_until style fields. */
  now: Date;
  /** Currency to express money in. */
  currency: Currency;
}

/**
 * An asset as the model works on it. `asset_id`, when present, pins it to the id a request
 * named: the answer carries that id and its figures, never an id re-derived from descriptors.
 */
export type MarketAsset = CanonicalAsset & { asset_id?: string };

/** A portfolio as stored by the HTTP layer. */
export interface StoredPortfolio {
  id: string;
  name: string;
  assets: PortfolioAssetInput[];
  currency: Currency;
  created_at: string;
  updated_at: string;
}

export interface Market {
  /** A full valuation record without the HTTP layer's id and status. */
  value(asset: MarketAsset, ctx: MarketContext): Omit<Valuation, 'id' | 'status'>;
  /**
   * The asset an id stands for, pinned to that id (undefined if not an asset id). Looked up, not
   * re-derived: the catalogue, the ids this market issued, else a deterministic reading of the id.
   */
  assetForId(assetId: string): (CanonicalAsset & { asset_id: string }) | undefined;
  /** Whether the service issued the id (a catalogue model's, or one it answered a description with): only those are valued by id. */
  isIssued(assetId: string): boolean;
  /** A few ids the service issued in a segment, for an error that names what is allowed. */
  issuedExamples(segment: SegmentId): string[];
  score(asset: MarketAsset, ctx: MarketContext): ScoreObject;
  breakdown(asset: MarketAsset, ctx: MarketContext): Breakdown;
  /** horizons: those to include (all three when the request named none). */
  projection(asset: MarketAsset, currentValue: number, horizons: readonly Horizon[], ctx: MarketContext): Omit<Projection, 'id'>;
  signalsOverview(ctx: MarketContext): SignalsOverview;
  segmentSignals(segment: SegmentId, ctx: MarketContext): SegmentSignals;
  /** Alerts active on ctx.now (created_at <= now < expires_at), ids stable for the same alert. */
  alerts(ctx: MarketContext): Alert[];
  portfolioCreated(p: StoredPortfolio, ctx: MarketContext): {
    asset_count: number;
    segment_count: number;
    total_invested: number;
    current_value: number;
    total_return_percent: number;
  };
  portfolioAnalytics(p: StoredPortfolio, ctx: MarketContext): PortfolioAnalytics;
  performance(p: StoredPortfolio, ctx: MarketContext): Performance;
  exitStrategy(asset: MarketAsset, currentValue: number, urgency: 'flexible' | 'standard' | 'urgent', ctx: MarketContext): ExitStrategy;
  /** Sale channels, all or those serving one segment. */
  exitChannels(segment: SegmentId | undefined, ctx: MarketContext): ExitChannel[];
  segmentList(ctx: MarketContext): SegmentList;
  segmentDetail(segment: SegmentId, ctx: MarketContext): SegmentDetail;
  /** The segment's price index on a day (YYYY-MM-DD): the series the signals' changes are read from. */
  segmentIndex(segment: SegmentId, day: string): number;
}

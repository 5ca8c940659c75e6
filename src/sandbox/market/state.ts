import { SEGMENT_IDS, type CanonicalAsset, type Currency, type SegmentId } from '../../wire';
import { catalogue, type KnownAsset } from './catalogue';
import { computeSegmentDay, type SegmentDay } from './market-day';
import { buildProfile, idiosyncratic, type AssetProfile } from './profiles';
import { assetIdFor } from './resolve';
import { computeScore, type ScoreParts } from './scoring';
import { buildMarketSeries, fxRate, type MarketSeries } from './series';

/** Catalogue scores of a segment on one day: for percentiles, averages and top lists. */
export interface SegmentScores {
  sorted: Float64Array;
  average: number;
  ranked: { asset: KnownAsset; score: number }[];
}

const MAX_CACHED_IDS = 200_000;
const MAX_CACHED_DAYS = 400;

/**
 * The market model's state for one seed: its series (computed once) and caches keyed by
 * request, asset id and day, so that repeated questions cost map lookups.
 */
export class MarketState {
  readonly series: MarketSeries;
  private readonly idsByRequest = new Map<string, string>();
  private readonly profiles = new Map<string, AssetProfile>();
  private readonly scoreMemo = new Map<string, { day: number; parts: ScoreParts }>();
  private readonly segmentDays = new Map<number, Record<SegmentId, SegmentDay>>();
  private readonly scoresByDay = new Map<number, Record<SegmentId, SegmentScores>>();

  constructor(readonly seed: number) {
    this.series = buildMarketSeries(seed);
  }

  /** The id a request resolves to (cached by the request's identifying fields). */
  assetId(asset: CanonicalAsset): string {
    const key = `${asset.segment}\u0000${asset.brand}\u0000${asset.model}\u0000${asset.reference ?? ''}\u0000${asset.year ?? ''}\u0000${asset.size ?? ''}`;
    let id = this.idsByRequest.get(key);
    if (id === undefined) {
      id = assetIdFor(asset);
      if (this.idsByRequest.size >= MAX_CACHED_IDS) this.idsByRequest.clear();
      this.idsByRequest.set(key, id);
    }
    return id;
  }

  profile(assetId: string): AssetProfile | undefined {
    let p = this.profiles.get(assetId);
    if (p === undefined) {
      p = buildProfile(assetId);
      if (!p) return undefined;
      if (this.profiles.size >= MAX_CACHED_IDS) this.profiles.clear();
      this.profiles.set(assetId, p);
    }
    return p;
  }

  profileFor(asset: CanonicalAsset): AssetProfile {
    return this.profile(this.assetId(asset))!;
  }

  segmentDay(segment: SegmentId, day: number): SegmentDay {
    let all = this.segmentDays.get(day);
    if (!all) {
      all = {} as Record<SegmentId, SegmentDay>;
      for (const s of SEGMENT_IDS) all[s] = computeSegmentDay(this.series, s, day);
      if (this.segmentDays.size >= MAX_CACHED_DAYS) this.segmentDays.delete(this.segmentDays.keys().next().value!);
      this.segmentDays.set(day, all);
    }
    return all[segment];
  }

  score(p: AssetProfile, day: number): ScoreParts {
    const memo = this.scoreMemo.get(p.asset_id);
    if (memo && memo.day === day) return memo.parts;
    const parts = computeScore(p, this.segmentDay(p.segment, day), day);
    if (this.scoreMemo.size >= MAX_CACHED_IDS) this.scoreMemo.clear();
    this.scoreMemo.set(p.asset_id, { day, parts });
    return parts;
  }

  segmentScores(segment: SegmentId, day: number): SegmentScores {
    let all = this.scoresByDay.get(day);
    if (!all) {
      all = {} as Record<SegmentId, SegmentScores>;
      const cat = catalogue();
      for (const s of SEGMENT_IDS) {
        const ranked = cat.bySegment[s]
          .map((asset) => ({ asset, score: this.score(this.profile(asset.asset_id)!, day).total }))
          .sort((a, b) => b.score - a.score || a.asset.order - b.asset.order);
        const sorted = Float64Array.from(ranked.map((r) => r.score)).sort();
        const average = ranked.reduce((t, r) => t + r.score, 0) / Math.max(1, ranked.length);
        all[s] = { sorted, average, ranked };
      }
      if (this.scoresByDay.size >= MAX_CACHED_DAYS) this.scoresByDay.delete(this.scoresByDay.keys().next().value!);
      this.scoresByDay.set(day, all);
    }
    return all[segment];
  }

  /** One unit's market price in USD on a day, before the holding's particulars. */
  priceUsd(p: AssetProfile, day: number): number {
    return p.baseUsd * this.series.segment[p.segment].at(day) * idiosyncratic(p, day);
  }

  fx(currency: Currency, day: number): number {
    return fxRate(this.series, currency, day);
  }

  /** The asset's own change over `days` to `day` (segment and idiosyncratic parts). */
  assetChange(p: AssetProfile, day: number, days: number): number {
    return this.priceUsd(p, day) / this.priceUsd(p, day - days) - 1;
  }
}

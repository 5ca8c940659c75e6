import { SEGMENT_IDS, type CanonicalAsset, type Currency, type SegmentId } from '../../wire';
import type { MarketAsset } from './market';
import { catalogue, type KnownAsset } from './catalogue';
import { computeSegmentDay, type SegmentDay } from './market-day';
import { buildProfile, idiosyncratic, type AssetProfile } from './profiles';
import { assetIdFor, readAssetId } from './resolve';
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
  /** Descriptors of the ids this market has issued for assets the catalogue does not list: what an id is echoed as. */
  private readonly issued = new Map<string, Omit<CanonicalAsset, 'quantity'>>();
  private readonly profiles = new Map<string, AssetProfile>();
  private readonly scoreMemo = new Map<string, { day: number; parts: ScoreParts }>();
  private readonly segmentDays = new Map<number, Record<SegmentId, SegmentDay>>();
  private readonly scoresByDay = new Map<number, Record<SegmentId, SegmentScores>>();

  constructor(readonly seed: number) {
    this.series = buildMarketSeries(seed);
  }

  /**
   * The id an asset is answered under: the id it was asked by, else the id its descriptors
   * resolve to (cached by the request's identifying fields). An id is never re-derived.
   */
  assetId(asset: MarketAsset): string {
    if (asset.asset_id !== undefined) return asset.asset_id;
    const key = `${asset.segment}\u0000${asset.brand}\u0000${asset.model}\u0000${asset.reference ?? ''}\u0000${asset.year ?? ''}\u0000${asset.size ?? ''}`;
    let id = this.idsByRequest.get(key);
    if (id === undefined) {
      id = assetIdFor(asset);
      if (this.idsByRequest.size >= MAX_CACHED_IDS) this.idsByRequest.clear();
      this.idsByRequest.set(key, id);
      if (!this.issued.has(id) && readAssetId(id)?.catalogued === false) {
        if (this.issued.size >= MAX_CACHED_IDS) this.issued.delete(this.issued.keys().next().value!);
        this.issued.set(id, { segment: asset.segment, brand: asset.brand, model: asset.model, reference: asset.reference, year: asset.year, size: asset.size });
      }
    }
    return id;
  }

  /**
   * The asset an id stands for, pinned to that id (undefined when it is not an asset id): the
   * catalogue's names for a catalogue model, the descriptors it was issued for, else a reading of its parts.
   */
  assetForId(assetId: string): (CanonicalAsset & { asset_id: string }) | undefined {
    const reading = readAssetId(assetId);
    if (!reading) return undefined;
    return { ...(this.issued.get(assetId) ?? reading.identity), quantity: 1, asset_id: assetId };
  }

  /**
   * Whether the service issued this id: a catalogue model's id (any year or size), or one this
   * market answered a description with. Other well-formed ids are read (assetForId) but not valued.
   */
  isIssued(assetId: string): boolean {
    return readAssetId(assetId)?.catalogued === true || this.issued.has(assetId);
  }

  /** Everything that follows from an id. Priced from the id alone, so the answer does not depend on what was asked before. */
  profile(assetId: string): AssetProfile | undefined {
    let p = this.profiles.get(assetId);
    if (p === undefined) {
      const reading = readAssetId(assetId);
      if (!reading) return undefined;
      const priced = buildProfile(reading.valuedAs)!;
      p = reading.valuedAs === assetId ? priced : { ...priced, asset_id: assetId };
      if (this.profiles.size >= MAX_CACHED_IDS) this.profiles.clear();
      this.profiles.set(assetId, p);
    }
    return p;
  }

  profileFor(asset: MarketAsset): AssetProfile {
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

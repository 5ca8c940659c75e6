import { SEGMENTS, formatSignedPercent, segmentById, type SegmentDetail, type SegmentId, type SegmentList } from '../../wire';
import { catalogue, displayModel } from './catalogue';
import { dayNumber } from './calendar';
import type { MarketContext } from './market';
import { SEGMENT_PROFILES } from './segment-profiles';
import type { MarketState } from './state';

/** asset_count is the number of reference assets the sandbox's catalogue holds for the segment. */
export function segmentList(state: MarketState): SegmentList {
  const cat = catalogue();
  const segments = SEGMENTS.map((s) => ({ id: s.id, name: s.name, asset_count: cat.bySegment[s.id].length }));
  // Accuracy: the catalogue's mean confidence, as the model itself rates its numbers.
  const profiles = cat.assets.map((a) => state.profile(a.asset_id)!);
  const accuracy = profiles.reduce((t, p) => t + p.confidence, 0) / Math.max(1, profiles.length);
  return { segments, total_assets: cat.assets.length, accuracy: `${(accuracy * 100).toFixed(1)}%` };
}

export function segmentDetail(state: MarketState, segment: SegmentId, ctx: MarketContext): SegmentDetail {
  const day = dayNumber(ctx.day);
  const cat = catalogue();
  const info = segmentById(segment)!;
  const d = state.segmentDay(segment, day);
  const scores = state.segmentScores(segment, day);
  const brands = cat.brands[segment]
    .filter((b) => b.entries.length > 0)
    .sort((a, b) => b.entries.length - a.entries.length || a.name.localeCompare(b.name)).map((b) => b.name);
  return {
    id: segment,
    name: info.name,
    asset_count: cat.bySegment[segment].length,
    brands,
    data_depth: info.coverage === 'Deep' ? 'decades' : 'years',
    calibration_status: info.coverage === 'Adapted' ? 'calibrating' : 'refined',
    performance: {
      ytd: formatSignedPercent(d.changeYtd * 100),
      '1_year': formatSignedPercent(d.change1y * 100),
      '3_year': formatSignedPercent(d.change3y * 100),
    },
    momentum: d.momentum,
    liquidity: SEGMENT_PROFILES[segment].liquidityLabel,
    avg_service_score: Math.round(scores.average),
    top_assets: scores.ranked.slice(0, 5).map((r) => ({ brand: r.asset.brand, model: displayModel(r.asset), score: r.score })),
    active_apis: ['valuations', 'scores', 'projections', 'signals', 'portfolio', 'exit'],
    market_validated: true,
  };
}


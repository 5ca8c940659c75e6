import { describe, expect, it } from 'vitest';
import {
  Breakdown,
  FACTOR_NAMES,
  FACTOR_WEIGHTS,
  HORIZONS,
  SCENARIOS,
  SEGMENT_IDS,
  ScoreObject,
  SegmentSignals,
  horizonKey,
  parseSignedPercent,
  formatSignedPercent,
} from '../../src/wire';
import { createMarket } from '../../src/sandbox/market';
import { asset, ctxFor, DAYTONA, LAFITE_2010, NAUTILUS } from './helpers';

const market = createMarket();
const ctx = ctxFor();
const SAMPLE = [
  DAYTONA,
  NAUTILUS,
  LAFITE_2010,
  asset({ segment: 'art', brand: 'Banksy', model: 'Girl with Balloon' }),
  asset({ segment: 'sneakers', brand: 'Nike', model: 'Air Jordan 1 Chicago', size: '10.5' }),
  asset({ segment: 'real_estate', brand: 'Unknown Town', model: 'Farmhouse' }),
  asset({ segment: 'cards', brand: 'Pokemon', model: 'Charizard 1st Edition PSA 10', reference: 'BS4-1ED-PSA10' }),
];

describe('numbers agree across operations', () => {
  it('the service score is the rounded weighted total of the six factors, the same in every operation', () => {
    for (const a of SAMPLE) {
      const v = market.value({ ...a, condition: 'good', quantity: 3 }, ctx);
      const s = ScoreObject.parse(market.score(a, ctx));
      const b = Breakdown.parse(market.breakdown(market.assetForId(v.asset_id)!, ctx));
      let sum = 0;
      for (const f of FACTOR_NAMES) {
        expect(b.factors[f].weight).toBe(FACTOR_WEIGHTS[f]);
        expect(b.factors[f].contribution).toBeCloseTo(b.factors[f].score * b.factors[f].weight, 2);
        sum += b.factors[f].contribution;
      }
      expect(b.weighted_total).toBe(Math.round(sum));
      expect(b.service_score).toBe(b.weighted_total);
      expect(s.service_score).toBe(b.weighted_total);
      expect(v.service_score).toBe(b.weighted_total);
      expect(b.asset_id).toBe(v.asset_id);
      expect(s.asset_id).toBe(v.asset_id);
    }
  });

  it('projections: probabilities sum to 1, ROIs follow from values, expected ROI is the weighted mean', () => {
    for (const a of SAMPLE) {
      const p = market.projection(a, 12_345.67, [12, 24, 36], ctx);
      const probs = SCENARIOS.map((s) => p.scenarios[s].probability);
      expect(probs.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 10);
      for (const h of HORIZONS) {
        const key = horizonKey(h);
        let expected = 0;
        for (const s of SCENARIOS) {
          const point = p.scenarios[s][key]!;
          expect(point.roi_percent).toBeCloseTo((point.value / p.current_value - 1) * 100, 2);
          expected += p.scenarios[s].probability * point.roi_percent;
        }
        expect(Math.abs(p.expected_roi[key]! - expected)).toBeLessThanOrEqual(0.01);
        expect(p.scenarios.conservative[key]!.value).toBeLessThan(p.scenarios.central[key]!.value);
        expect(p.scenarios.central[key]!.value).toBeLessThan(p.scenarios.optimistic[key]!.value);
      }
    }
  });

  it('projections return only the horizons asked for', () => {
    const p = market.projection(DAYTONA, 30_000, [24], ctx);
    expect(p.scenarios.central['24_months']).toBeDefined();
    expect(p.scenarios.central['12_months']).toBeUndefined();
    expect(Object.keys(p.expected_roi)).toEqual(['24_months']);
  });

  it("a segment's 7/30/90-day changes in the signals are its price series' changes", () => {
    const day = (offset: number) => new Date(Date.UTC(2026, 10, 21 - offset)).toISOString().slice(0, 10);
    for (const seg of SEGMENT_IDS) {
      const s = SegmentSignals.parse(market.segmentSignals(seg, ctx));
      const change = (n: number) => (market.segmentIndex(seg, day(0)) / market.segmentIndex(seg, day(n)) - 1) * 100;
      expect(s.signals.price.change_7d).toBe(formatSignedPercent(change(7)));
      expect(s.signals.price.change_30d).toBe(formatSignedPercent(change(30)));
      expect(s.signals.price.change_90d).toBe(formatSignedPercent(change(90)));
      const momentum = market.signalsOverview(ctx).segments[seg]!.momentum;
      expect(s.signals.momentum.direction).toBe(momentum);
      const c30 = parseSignedPercent(s.signals.price.change_30d)!;
      if (c30 >= 1) expect(momentum).toBe('positive');
      if (c30 <= -1) expect(momentum).toBe('negative');
    }
  });

  it('valuation momentum and vs_segment_avg agree with the score object', () => {
    for (const a of SAMPLE) {
      const v = market.value(a, ctx);
      const s = market.score(a, ctx);
      expect(v.momentum).toBe(s.momentum);
      expect(v.vs_segment_avg).toBe(s.vs_segment_avg);
      expect(v.confidence).toBe(s.confidence);
    }
  });

  it('segment detail: average score and top assets agree with the scores of those assets', () => {
    for (const seg of SEGMENT_IDS) {
      const d = market.segmentDetail(seg, ctx);
      expect(d.top_assets.length).toBeGreaterThan(0);
      for (let i = 1; i < d.top_assets.length; i++) expect(d.top_assets[i - 1]!.score).toBeGreaterThanOrEqual(d.top_assets[i]!.score);
      const list = market.segmentList(ctx).segments.find((s) => s.id === seg)!;
      expect(d.asset_count).toBe(list.asset_count);
    }
    const top = market.segmentDetail('watches', ctx).top_assets[0]!;
    const topScore = market.score(asset({ segment: 'watches', brand: top.brand, model: top.model }), ctx).service_score;
    expect(topScore).toBe(top.score);
  });
});

describe('top movers', () => {
  it("a mover's brand and model value the same asset, whose 30-day change is the mover's", () => {
    const monthAgo = ctxFor('2026-10-22');
    for (const seg of SEGMENT_IDS) {
      for (const mover of market.segmentSignals(seg, ctx).signals.top_movers) {
        const a = asset({ segment: seg, brand: mover.brand, model: mover.model });
        const change = (market.value(a, ctx).estimated_value.mid / market.value(a, monthAgo).estimated_value.mid - 1) * 100;
        expect(Math.abs(change - parseSignedPercent(mover.change_30d)!), `${seg} ${mover.model}`).toBeLessThanOrEqual(0.06);
        expect(market.value(a, ctx).confidence, `${seg} ${mover.model} matched the catalogue`).toBeGreaterThanOrEqual(0.6);
      }
    }
  });
});

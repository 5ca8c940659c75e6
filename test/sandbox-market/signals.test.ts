import { describe, expect, it } from 'vitest';
import { Alert, SEGMENT_IDS, SegmentDetail, SegmentList, SignalsOverview } from '../../src/wire';
import { createMarket } from '../../src/sandbox/market';
import { ctxFor } from './helpers';

const market = createMarket();

describe('signals and alerts', () => {
  it('overview covers all ten segments and parses', () => {
    const o = SignalsOverview.parse(market.signalsOverview(ctxFor()));
    expect(Object.keys(o.segments).sort()).toEqual([...SEGMENT_IDS].sort());
  });

  it('alerts are active at the moment asked for, with stable ids', () => {
    let seen = 0;
    for (let d = 1; d <= 28; d++) {
      const day = `2026-10-${String(d).padStart(2, '0')}`;
      const ctx = ctxFor(day);
      const alerts = market.alerts(ctx);
      seen += alerts.length;
      for (const a of alerts) {
        Alert.parse(a);
        expect(a.created_at <= ctx.now.toISOString()).toBe(true);
        expect(ctx.now.toISOString() < a.expires_at).toBe(true);
      }
      expect(market.alerts(ctx).map((a) => a.id)).toEqual(alerts.map((a) => a.id));
      // The overview lists the same alerts.
      expect(market.signalsOverview(ctx).alerts.length).toBe(alerts.length);
    }
    expect(seen).toBeGreaterThan(0);
    // An alert keeps its id from one day to the next while it lives.
    const first = market.alerts(ctxFor('2026-10-10'));
    const next = new Set(market.alerts(ctxFor('2026-10-11')).map((a) => a.id));
    const survivors = first.filter((a) => a.expires_at > '2026-10-11T12:00:00.000Z');
    for (const a of survivors) expect(next.has(a.id)).toBe(true);
  });

  it('as of a past day, alerts are those active at the end of that day', () => {
    const past = { day: '2026-10-05', now: new Date('2026-11-21T12:00:00Z'), currency: 'USD' as const };
    for (const a of market.alerts(past)) {
      expect(a.created_at <= '2026-10-05T23:59:59.999Z').toBe(true);
      expect(a.expires_at > '2026-10-05T23:59:59.999Z').toBe(true);
    }
  });
});

describe('segments', () => {
  it('list counts the catalogue and parses', () => {
    const l = SegmentList.parse(market.segmentList(ctxFor()));
    expect(l.segments).toHaveLength(10);
    expect(l.total_assets).toBe(l.segments.reduce((t, s) => t + s.asset_count, 0));
    expect(l.total_assets).toBeGreaterThanOrEqual(300);
  });

  it('detail parses for every segment and reports performance from the series', () => {
    for (const s of SEGMENT_IDS) {
      const d = SegmentDetail.parse(market.segmentDetail(s, ctxFor()));
      expect(d.brands.length).toBeGreaterThan(3);
      const oneYear = (market.segmentIndex(s, '2026-11-21') / market.segmentIndex(s, '2025-11-21') - 1) * 100;
      expect(d.performance['1_year']).toBe(`${oneYear < 0 && Math.abs(oneYear).toFixed(1) !== '0.0' ? '-' : '+'}${Math.abs(oneYear).toFixed(1)}%`);
    }
  });
});

describe('determinism of market-wide answers', () => {
  it('two markets of one seed agree on every market-wide answer; another day differs', () => {
    const other = createMarket();
    const ctx = ctxFor();
    expect(other.signalsOverview(ctx)).toEqual(market.signalsOverview(ctx));
    expect(other.alerts(ctx)).toEqual(market.alerts(ctx));
    expect(other.segmentList(ctx)).toEqual(market.segmentList(ctx));
    for (const s of SEGMENT_IDS) {
      expect(other.segmentSignals(s, ctx)).toEqual(market.segmentSignals(s, ctx));
      expect(other.segmentDetail(s, ctx)).toEqual(market.segmentDetail(s, ctx));
    }
    const changes = (day: string) => SEGMENT_IDS.map((s) => market.segmentSignals(s, ctxFor(day)).signals.price.change_30d).join();
    expect(changes('2026-11-20')).not.toBe(changes('2026-11-21'));
  });
});

import { describe, expect, it } from 'vitest';
import { Alert, SEGMENT_IDS, SegmentDetail, SegmentList, SignalsOverview } from '../../src/wire';
import { createMarket } from '../../src/sandbox/market';
import { ctxFor } from './helpers';

const market = createMarket();

/** Whether an alert says what the signals of that moment say (the dashboard shows both side by side). */
function agreesWithSignals(a: Alert, ctx: ReturnType<typeof ctxFor>): boolean {
  const segment = a.segment as (typeof SEGMENT_IDS)[number];
  const overview = market.signalsOverview(ctx).segments[segment]!;
  const s = market.segmentSignals(segment, ctx).signals;
  switch (a.type) {
    case 'sentiment_shift':
      return a.title.endsWith(`sentiment now ${overview.sentiment}`);
    case 'breakout':
      return a.message.includes(`up ${s.price.change_30d} over 30 days`);
    case 'breakdown':
      return a.message.includes(`are ${s.price.change_30d} over 30 days`) && s.price.change_30d.startsWith('-');
    case 'volume_spike':
      return a.message.includes(`volume is ${s.volume.change_vs_avg} against`);
    default:
      return false;
  }
}

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
    // An alert keeps its id from one day to the next while it lives, and leaves early only when what it says stopped holding.
    const first = market.alerts(ctxFor('2026-10-10'));
    const nextCtx = ctxFor('2026-10-11');
    const next = new Map(market.alerts(nextCtx).map((a) => [a.id, a]));
    const survivors = first.filter((a) => a.expires_at > '2026-10-11T12:00:00.000Z');
    for (const a of survivors) {
      const later = next.get(a.id);
      if (later) expect([later.type, later.title, agreesWithSignals(later, nextCtx)]).toEqual([a.type, a.title, true]);
      else if (a.type === 'sentiment_shift') expect(agreesWithSignals(a, nextCtx), a.title).toBe(false);
    }
    expect(survivors.some((a) => next.has(a.id))).toBe(true);
  });

  it('alerts agree with the signals of the same moment: a sentiment alert names the sentiment, a break the 30-day change', () => {
    const kinds = new Set<string>();
    for (let d = 0; d < 120; d++) {
      const ctx = ctxFor(new Date(Date.UTC(2026, 6, 1) + d * 86_400_000).toISOString().slice(0, 10));
      for (const a of market.alerts(ctx)) {
        kinds.add(a.type);
        expect(agreesWithSignals(a, ctx), `${ctx.day} ${a.title}: ${a.message}`).toBe(true);
      }
    }
    expect(kinds.size).toBeGreaterThanOrEqual(3);
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

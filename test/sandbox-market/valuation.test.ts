import { describe, expect, it } from 'vitest';
import { Valuation } from '../../src/wire';
import { createMarket } from '../../src/sandbox/market';
import { asset, ctxFor, DAYTONA, LAFITE_2010 } from './helpers';

describe('valuations', () => {
  it('are deterministic: the same request on the same day gives the same answer, across instances', () => {
    const a = createMarket({ seed: 7 });
    const b = createMarket({ seed: 7 });
    expect(a.value(DAYTONA, ctxFor())).toEqual(b.value(DAYTONA, ctxFor()));
    expect(a.value(DAYTONA, ctxFor())).toEqual(a.value({ ...DAYTONA }, ctxFor()));
  });

  it('move from day to day, and differ between seeds', () => {
    const m = createMarket();
    const mids = ['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21'].map((d) => m.value(DAYTONA, ctxFor(d)).estimated_value.mid);
    expect(new Set(mids).size).toBe(4);
    expect(createMarket({ seed: 1 }).value(DAYTONA, ctxFor('2027-03-01')).estimated_value.mid).not.toBe(
      createMarket({ seed: 2 }).value(DAYTONA, ctxFor('2027-03-01')).estimated_value.mid,
    );
  });

  it('parse against the wire schema, with low <= mid <= high, valid_until the end of the day', () => {
    const m = createMarket();
    const v = Valuation.parse(m.value(DAYTONA, ctxFor()));
    expect(v.estimated_value.low).toBeLessThanOrEqual(v.estimated_value.mid);
    expect(v.estimated_value.mid).toBeLessThanOrEqual(v.estimated_value.high);
    expect(v.valid_until).toBe('2026-11-21T23:59:59Z');
    expect(v.generated_at).toBe('2026-11-21T12:00:00.000Z');
    expect(v.brand).toBe('Rolex');
    expect(v.reference).toBe('116500LN');
  });

  it('rank condition excellent > very_good > good > fair, and value a full set above a missing one', () => {
    const m = createMarket();
    const mid = (extra: object) => m.value({ ...DAYTONA, ...extra }, ctxFor()).estimated_value.mid;
    const order = ['excellent', 'very_good', 'good', 'fair'].map((condition) => mid({ condition }));
    for (let i = 1; i < order.length; i++) expect(order[i - 1]).toBeGreaterThan(order[i]!);
    expect(mid({ box_papers: true })).toBeGreaterThan(mid({ box_papers: false }));
  });

  it('multiply by quantity, and move with vintage and size', () => {
    const m = createMarket();
    const one = m.value(LAFITE_2010, ctxFor()).estimated_value.mid;
    const six = m.value({ ...LAFITE_2010, quantity: 6 }, ctxFor()).estimated_value.mid;
    expect(six).toBeCloseTo(one * 6, 1);
    const weak = m.value({ ...LAFITE_2010, year: 2013 }, ctxFor()).estimated_value.mid;
    expect(weak).toBeLessThan(one);
    const bottle = m.value({ ...LAFITE_2010, size: '75cl bottle' }, ctxFor()).estimated_value.mid;
    expect(bottle).toBeLessThan(one / 6);
    const birkin = (size: string) => m.value(asset({ segment: 'bags', brand: 'Hermès', model: 'Birkin', size }), ctxFor()).estimated_value.mid;
    expect(birkin('25')).toBeGreaterThan(birkin('35'));
  });

  it('move with the year sensibly: newer modern watches, older vintage pieces and spirits are worth more', () => {
    const m = createMarket();
    const mid = (a: Parameters<typeof asset>[0]) => m.value(asset(a), ctxFor()).estimated_value.mid;
    expect(mid({ ...DAYTONA, year: 2023 })).toBeGreaterThan(mid({ ...DAYTONA, year: 2016 }));
    const gmt = { segment: 'watches' as const, brand: 'Rolex', model: 'GMT-Master', reference: '1675' };
    expect(mid({ ...gmt, year: 1962 })).toBeGreaterThan(mid({ ...gmt, year: 1978 }));
    const bowmore = { segment: 'spirits' as const, brand: 'Bowmore', model: 'Black Bowmore First Edition' };
    expect(mid({ ...bowmore, year: 1960 })).toBeGreaterThan(mid({ ...bowmore, year: 1964 }));
    // A listed vintage is priced as listed: Lafite 1982 far above 2016.
    const lafite = { segment: 'wine' as const, brand: 'Lafite', model: 'Lafite Rothschild' };
    expect(mid({ ...lafite, year: 1982 })).toBeGreaterThan(3 * mid({ ...lafite, year: 2016 }));
  });

  it('fall back for unknown assets with lower confidence, fewer data points and market_validated false', () => {
    const m = createMarket();
    const known = m.value(DAYTONA, ctxFor());
    const brandOnly = m.value(asset({ segment: 'watches', brand: 'Rolex', model: 'Prototype X' }), ctxFor());
    const unknown = m.value(asset({ segment: 'watches', brand: 'Nobody Watch Co', model: 'One' }), ctxFor());
    for (const v of [brandOnly, unknown]) {
      Valuation.parse(v);
      expect(v.confidence).toBeLessThan(0.6);
      expect(v.confidence).toBeLessThan(known.confidence);
      expect(v.data_points!).toBeLessThan(known.data_points!);
      expect(v.market_validated).toBe(false);
      // A wider band for a less certain number.
      expect(v.estimated_value.high / v.estimated_value.low).toBeGreaterThan(known.estimated_value.high / known.estimated_value.low);
    }
    expect(known.market_validated).toBe(true);
    expect(brandOnly.confidence).toBeGreaterThan(unknown.confidence);
    // Plausible: within the segment's range, not zero, not absurd.
    expect(unknown.estimated_value.mid).toBeGreaterThan(1_000);
    expect(unknown.estimated_value.mid).toBeLessThan(500_000);
  });

  it('value unknown models of brands the catalogue lists no asset of at the brand level', () => {
    const m = createMarket();
    const mid = (brand: string) => m.value(asset({ segment: 'watches', brand, model: 'Some Model' }), ctxFor());
    const greubel = mid('Greubel Forsey');
    const seiko = mid('Seiko');
    expect(greubel.estimated_value.mid).toBeGreaterThan(100 * seiko.estimated_value.mid);
    expect(greubel.market_validated).toBe(false);
    expect(greubel.brand).toBe('Greubel Forsey');
    const london = m.value(asset({ segment: 'real_estate', brand: 'London', model: 'Flat' }), ctxFor()).estimated_value.mid;
    expect(london).toBeGreaterThan(1_000_000);
  });

  it('convert currencies through the FX series', () => {
    const m = createMarket();
    const usd = m.value(DAYTONA, ctxFor()).estimated_value;
    const eur = m.value(DAYTONA, ctxFor(undefined, 'EUR')).estimated_value;
    const gbp = m.value(DAYTONA, ctxFor(undefined, 'GBP')).estimated_value;
    expect(eur.currency).toBe('EUR');
    expect(eur.mid / usd.mid).toBeGreaterThan(0.7);
    expect(eur.mid / usd.mid).toBeLessThan(1);
    expect(gbp.mid).toBeLessThan(eur.mid);
  });
});

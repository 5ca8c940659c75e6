import { describe, expect, it } from 'vitest';
import {
  BatchValuationRequest,
  Breakdown,
  FACTOR_WEIGHTS,
  OPERATIONS,
  PortfolioRequest,
  ProjectionRequest,
  SEGMENT_IDS,
  SegmentSignals,
  Valuation,
  buildPath,
  describeZodError,
  formatSignedPercent,
  matchOperation,
  parseSignedPercent,
} from '../../src/wire';

describe('the operations table', () => {
  it('lists the 20 operations of the spec plus POST /scores/batch', () => {
    expect(Object.keys(OPERATIONS)).toHaveLength(21);
    const routes = Object.values(OPERATIONS).map((o) => `${o.method} ${o.path}`);
    expect(new Set(routes).size).toBe(21);
    expect(routes).toContain('POST /scores/batch');
  });

  it('routes the fixed /signals/alerts before the /signals/{segment} parameter', () => {
    expect(matchOperation('GET', '/signals/alerts')).toEqual({ name: 'listAlerts', params: {} });
    expect(matchOperation('GET', '/signals/wine')).toEqual({ name: 'segmentSignals', params: { segment: 'wine' } });
    expect(matchOperation('DELETE', '/signals/wine')).toEqual({ pathKnown: true });
    expect(matchOperation('GET', '/nowhere')).toEqual({ pathKnown: false });
  });

  it('encodes path parameters', () => {
    expect(buildPath('/portfolio/{id}/performance', { id: 'port_a/b' })).toBe('/portfolio/port_a%2Fb/performance');
    expect(() => buildPath('/portfolio/{id}', {})).toThrow(/'id' is required/);
  });
});

describe('request validation names the field', () => {
  it('names the batch item and lists the ten segments', () => {
    const r = BatchValuationRequest.safeParse({
      assets: [
        { segment: 'watches', brand: 'Rolex', model: 'Daytona' },
        { segment: 'watches', brand: 'Rolex', model: 'Submariner' },
        { segment: 'watches', brand: 'Rolex', model: 'GMT' },
        { segment: 'yachts', brand: 'Feadship', model: 'X' },
      ],
    });
    expect(r.success).toBe(false);
    const p = describeZodError(r.error!);
    expect(p.field).toBe('assets[3].segment');
    expect(p.allowed_values).toEqual(SEGMENT_IDS);
    expect(p.message).toContain('watches, art, wine');
  });

  it('refuses a batch of 51 at the assets field', () => {
    const asset = { segment: 'watches', brand: 'Rolex', model: 'Daytona' };
    const r = BatchValuationRequest.safeParse({ assets: Array.from({ length: 51 }, () => asset) });
    expect(describeZodError(r.error!)).toMatchObject({ field: 'assets', message: 'assets holds at most 50 items' });
  });

  it('refuses horizons other than 12, 24 and 36', () => {
    const r = ProjectionRequest.safeParse({ asset_id: 'SVC-WAT-ROLEX-116500LN', current_value: 1000, horizons: [12, 18] });
    expect(describeZodError(r.error!).field).toBe('horizons[1]');
  });

  it('refuses impossible dates and negative prices in a portfolio', () => {
    const base = { segment: 'watches', brand: 'Rolex', model: 'Daytona', purchase_price: 1000, purchase_date: '2021-02-28' };
    expect(PortfolioRequest.safeParse({ name: 'p', assets: [base] }).success).toBe(true);
    const badDate = PortfolioRequest.safeParse({ name: 'p', assets: [{ ...base, purchase_date: '2021-02-30' }] });
    expect(describeZodError(badDate.error!).field).toBe('assets[0].purchase_date');
    const badPrice = PortfolioRequest.safeParse({ name: 'p', assets: [{ ...base, purchase_price: -5 }] });
    expect(describeZodError(badPrice.error!)).toMatchObject({ field: 'assets[0].purchase_price', message: 'assets[0].purchase_price must be at least 0' });
  });

  it('says "must be a number" for a present value of the wrong type, "is required" for a missing one, with or without the input', () => {
    const body = { asset_id: 'SVC-WAT-ROLEX-116500LN', current_value: '1000' };
    const wrong = ProjectionRequest.safeParse(body).error!;
    expect(describeZodError(wrong, body).message).toBe('current_value must be a number');
    expect(describeZodError(wrong).message).toBe('current_value must be a number');
    const missing = ProjectionRequest.safeParse({ asset_id: 'x' }).error!;
    expect(describeZodError(missing, { asset_id: 'x' }).message).toBe('current_value is required');
    expect(describeZodError(missing).message).toBe('current_value is required');
    const zero = ProjectionRequest.safeParse({ asset_id: 'x', current_value: 0 }).error!;
    expect(describeZodError(zero).message).toBe('current_value must be at least 0.01');
  });

  it('accepts the wine and art aliases for the maker', () => {
    const wine = { segment: 'wine', producer: 'Château Lafite Rothschild', vintage: 2010, quantity: 12, purchase_price: 7000, purchase_date: '2015-06-01' };
    expect(PortfolioRequest.safeParse({ name: 'cellar', assets: [wine] }).success).toBe(true);
    const r = BatchValuationRequest.safeParse({ assets: [{ segment: 'art', artist: 'Banksy', title: 'Girl with Balloon' }] });
    expect(r.success).toBe(true);
  });
});

describe('responses are forward-compatible', () => {
  const valuation = {
    id: 'val_1',
    asset_id: 'SVC-WAT-ROLEX-116500LN-2020',
    segment: 'watches',
    brand: 'Rolex',
    model: 'Daytona',
    estimated_value: { low: 28000, mid: 30000, high: 32000, currency: 'USD' },
    confidence: 0.9,
    service_score: 88,
    momentum: 'positive',
    market_validated: true,
    generated_at: '2026-11-21T10:00:00Z',
  };

  it('parses unknown fields and unseen enum values', () => {
    const v = Valuation.parse({ ...valuation, momentum: 'sideways', brand_new_field: 1 });
    expect(v.momentum).toBe('sideways');
  });

  it('still rejects a wrong type and says where', () => {
    const r = Valuation.safeParse({ ...valuation, service_score: '88' });
    expect(r.success).toBe(false);
    expect(describeZodError(r.error!).field).toBe('service_score');
  });

  it('requires exactly the six factors of the breakdown', () => {
    const f = { score: 80, weight: 0.2, contribution: 16 };
    const factors = Object.fromEntries(Object.keys(FACTOR_WEIGHTS).map((k) => [k, f]));
    const b = { asset_id: 'x', service_score: 80, factors, weighted_total: 80, market_validated: true, generated_at: '2026-11-21T10:00:00Z' };
    expect(Breakdown.safeParse(b).success).toBe(true);
    const { liquidity_profile: _omit, ...five } = factors;
    expect(Breakdown.safeParse({ ...b, factors: five }).success).toBe(false);
  });

  it('weights sum to 1', () => {
    expect(Object.values(FACTOR_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });

  it('checks signed percent strings', () => {
    const ok = SegmentSignals.shape.signals.shape.price.safeParse({ trend: 'upward', change_7d: '+1.2%', change_30d: '-3.0%', change_90d: '+0.0%' });
    expect(ok.success).toBe(true);
    const bad = SegmentSignals.shape.signals.shape.price.safeParse({ trend: 'upward', change_7d: '1.2', change_30d: '-3.0%', change_90d: '+0.0%' });
    expect(bad.success).toBe(false);
  });
});

describe('signed percents', () => {
  it('format with a sign and parse back', () => {
    expect(formatSignedPercent(4.25)).toBe('+4.3%');
    expect(formatSignedPercent(-0.8)).toBe('-0.8%');
    expect(formatSignedPercent(-0.01)).toBe('+0.0%');
    expect(parseSignedPercent('-12.5%')).toBe(-12.5);
    expect(parseSignedPercent('abc')).toBeUndefined();
  });
});

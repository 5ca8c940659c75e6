import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FACTOR_NAMES,
  FACTOR_WEIGHTS,
  OPERATIONS,
  SEGMENT_IDS,
  SCENARIOS,
  parseSignedPercent,
  type OperationDef,
  type OperationName,
  type ResponseOf,
  type ValuationRequest,
} from '../../src/wire';
import { call, expectShape, getToken, start, type Reply, type Sandbox } from './helpers';

// A fixed sandbox clock: the market day and every generated_at are reproducible.
const NOW = new Date('2026-03-16T10:00:00.000Z');
const TODAY = '2026-03-16';

const rolex: ValuationRequest = { segment: 'watches', brand: 'Rolex', model: 'Submariner Date', reference: '126610LN', year: 2020, condition: 'excellent', box_papers: true };
const birkin: ValuationRequest = { segment: 'bags', brand: 'Hermes', model: 'Birkin 30' };
const petrus: ValuationRequest = { segment: 'wine', producer: 'Petrus', model: 'Pomerol', vintage: 2010, quantity: 6 };
const banksy: ValuationRequest = { segment: 'art', artist: 'Banksy', title: 'Girl with Balloon', year: 2004, medium: 'spray paint on canvas', size_cm: { width: 60, height: 80 } };

let sb: Sandbox;
let token: string;

beforeAll(async () => {
  sb = await start({ now: () => NOW });
  token = (await getToken(sb.url, 'demo-enterprise')).access_token;
});
afterAll(() => sb.close());

/** Calls an operation of the wire table and validates the answer with its response schema. */
async function op<N extends OperationName>(name: N, opts: { params?: Record<string, string>; body?: unknown; query?: string; headers?: Record<string, string> } = {}): Promise<ResponseOf<N>> {
  const def: OperationDef = OPERATIONS[name];
  const path = def.path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(opts.params?.[k] ?? ''));
  const r: Reply = await call(sb.url, def.method, path + (opts.query ?? ''), { token, body: opts.body, headers: opts.headers });
  expect(r.status, `${name}: ${JSON.stringify(r.json)}`).toBe(def.status);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(r.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  return expectShape(def.response, r.json) as ResponseOf<N>;
}

const close = (a: number, b: number, tol: number) => expect(Math.abs(a - b), `${a} vs ${b}`).toBeLessThanOrEqual(tol);

describe('every operation answers its schema', () => {
  it('valuations: create, retrieve by id, batch', async () => {
    const v = await op('createValuation', { body: rolex });
    expect(v.id).toMatch(/^val_/);
    expect(v.asset_id).toMatch(/^SVC-WAT-/);
    expect(v.segment).toBe('watches');
    expect(v.estimated_value.currency).toBe('USD');
    expect(v.estimated_value.low).toBeLessThanOrEqual(v.estimated_value.mid);
    expect(v.estimated_value.mid).toBeLessThanOrEqual(v.estimated_value.high);
    expect(v.generated_at).toBe(NOW.toISOString());

    const got = await op('getValuation', { params: { id: v.id! } });
    expect(got).toMatchObject({ id: v.id, asset_id: v.asset_id, estimated_value: v.estimated_value, service_score: v.service_score, status: 'valid' });

    const batch = await op('batchValuations', { body: { assets: [rolex, birkin, petrus, banksy] } });
    expect(batch.batch_id).toMatch(/^batch_/);
    expect(batch.count).toBe(4);
    expect(batch.valuations.map((b) => b.asset_id)[0]).toBe(v.asset_id);
    const first = batch.valuations[0]!;
    expect(first.estimated_value).toEqual(v.estimated_value);
    expect(first.service_score).toBe(v.service_score);
    expect(first.confidence).toBe(v.confidence);
    expect(first.momentum).toBe(v.momentum);
    expect(first.data_points).toBe(v.data_points);
    expect(first.valid_until).toBe(v.valid_until);
    const sum = batch.valuations.reduce((s, b) => s + b.estimated_value.mid, 0);
    expect(batch.total_value).toBe(Math.round(sum * 100) / 100);
  });

  it('valuations in another currency', async () => {
    const usd = await op('createValuation', { body: birkin });
    const eur = await op('createValuation', { body: { ...birkin, currency: 'EUR' } });
    expect(eur.estimated_value.currency).toBe('EUR');
    expect(eur.estimated_value.mid).not.toBe(usd.estimated_value.mid);
    const batch = await op('batchValuations', { body: { currency: 'GBP', assets: [birkin, rolex] } });
    expect(batch.valuations.every((b) => b.estimated_value.currency === 'GBP')).toBe(true);
  });

  it('scores: by descriptors (art aliases), by asset id, breakdown, batch', async () => {
    const art = await op('createScore', { body: banksy });
    expect(art.score.asset_id).toMatch(/^SVC-ART-/);
    const v = await op('createValuation', { body: rolex });
    const s = await op('createScore', { body: { asset_id: v.asset_id } });
    const b = await op('scoreBreakdown', { body: { asset_id: v.asset_id } });
    const batch = await op('batchScores', { body: { assets: [{ asset_id: v.asset_id }, banksy] } });
    expect(batch.count).toBe(2);
    expect(batch.scores[0]).toEqual(s.score);
    expect(batch.scores[1]!.service_score).toBe(art.score.service_score);
    // One score everywhere: valuation, score, breakdown, batch.
    expect(s.score.service_score).toBe(v.service_score);
    expect(b.breakdown.service_score).toBe(v.service_score);
    expect(b.breakdown.weighted_total).toBe(v.service_score);
  });

  it('projections: create, horizons filter, retrieve by id', async () => {
    const v = await op('createValuation', { body: rolex });
    const p = await op('createProjection', { body: { asset_id: v.asset_id, current_value: v.estimated_value.mid, scenarios: ['central'] } });
    expect(p.projection.id).toMatch(/^proj_/);
    expect(p.projection.current_value).toBe(v.estimated_value.mid);
    for (const sc of SCENARIOS) expect(Object.keys(p.projection.scenarios[sc]).sort()).toEqual(['12_months', '24_months', '36_months', 'probability']);
    const again = await op('getProjection', { params: { id: p.projection.id } });
    expect(again).toEqual(p);
    const only12 = await op('createProjection', { body: { asset_id: v.asset_id, current_value: 1000, horizons: [12] } });
    expect(Object.keys(only12.projection.expected_roi)).toEqual(['12_months']);
    expect(only12.projection.scenarios.central['36_months']).toBeUndefined();
  });

  it('signals: overview, alerts, one segment', async () => {
    const o = await op('signalsOverview');
    expect(Object.keys(o.signals.segments).sort()).toEqual([...SEGMENT_IDS].sort());
    const a = await op('listAlerts');
    expect(a.count).toBe(a.alerts.length);
    for (const al of a.alerts) {
      expect(al.id).toMatch(/^alert_/);
      expect(Date.parse(al.created_at)).toBeLessThanOrEqual(NOW.getTime());
      expect(Date.parse(al.expires_at)).toBeGreaterThan(NOW.getTime());
    }
    const s = await op('segmentSignals', { params: { segment: 'watches' } });
    expect(s.segment).toBe('watches');
  });

  it('portfolio: create (201), analytics, update, performance', async () => {
    const created = await op('createPortfolio', {
      body: {
        name: 'Family office',
        assets: [
          { ...rolex, purchase_price: 9500, purchase_date: '2021-04-01' },
          { segment: 'wine', producer: 'Petrus', vintage: 2010, quantity: 6, purchase_price: 18000, purchase_date: '2019-11-20' },
          { ...birkin, purchase_price: 12000, purchase_date: '2022-02-14' },
        ],
      },
    });
    const id = created.portfolio.id;
    expect(id).toMatch(/^port_/);
    expect(created.portfolio.asset_count).toBe(3);
    expect(created.portfolio.segment_count).toBe(3);
    expect(created.portfolio.total_invested).toBe(39500);

    const got = await op('getPortfolio', { params: { id } });
    const p = got.portfolio;
    expect(p.summary.current_value).toBe(created.portfolio.current_value);
    // Allocation and holdings add up to the total.
    const alloc = Object.values(p.allocation);
    close(alloc.reduce((s, a) => s + a.percentage, 0), 100, 0.05);
    close(alloc.reduce((s, a) => s + a.value, 0), p.summary.current_value, 0.05);
    close(p.assets.reduce((s, a) => s + a.current_value, 0), p.summary.current_value, 0.05);
    close(p.summary.total_return_percent, (p.summary.current_value / p.summary.total_invested - 1) * 100, 0.05);

    const updated = await op('updatePortfolio', { params: { id }, body: { name: 'Renamed', assets: [{ ...birkin, purchase_price: 12000, purchase_date: '2022-02-14' }] } });
    expect(updated.portfolio.name).toBe('Renamed');
    expect(updated.portfolio.summary.asset_count).toBe(1);
    expect((await op('getPortfolio', { params: { id } })).portfolio.name).toBe('Renamed');

    const perf = await op('portfolioPerformance', { params: { id } });
    expect(perf.performance.portfolio_id).toBe(id);
  });

  it('exit: analysis with net = value − commission, and channels', async () => {
    const v = await op('createValuation', { body: rolex });
    const e = await op('analyseExit', { body: { asset_id: v.asset_id, current_value: 20000, urgency: 'flexible' } });
    for (const c of [e.exit_strategy.channels.primary, e.exit_strategy.channels.secondary]) {
      close(c.estimated_net, 20000 * (1 - c.commission_percent / 100), 0.01);
    }
    const all = await op('exitChannels');
    expect(all.count).toBe(all.channels.length);
    const wine = await op('exitChannels', { query: '?segment=wine' });
    expect(wine.channels.length).toBeGreaterThan(0);
    expect(wine.channels.length).toBeLessThanOrEqual(all.channels.length);
    for (const c of wine.channels) expect(c.segments).toContain('wine');
  });

  it('segments: list and detail', async () => {
    const list = await op('listSegments');
    expect(list.segments.map((s) => s.id)).toEqual([...SEGMENT_IDS]);
    expect(list.total_assets).toBe(list.segments.reduce((s, x) => s + x.asset_count, 0));
    for (const id of SEGMENT_IDS) expect((await op('getSegment', { params: { segment: id } })).segment.id).toBe(id);
  });
});

describe('invariants over HTTP', () => {
  it('breakdown: contributions are score × weight and the weighted total is their rounded sum', async () => {
    for (const body of [rolex, birkin, petrus, banksy]) {
      const v = await op('createValuation', { body });
      const b = (await op('scoreBreakdown', { body: { asset_id: v.asset_id } })).breakdown;
      let total = 0;
      let weights = 0;
      for (const f of FACTOR_NAMES) {
        const factor = b.factors[f];
        expect(factor.weight).toBe(FACTOR_WEIGHTS[f]);
        close(factor.contribution, factor.score * factor.weight, 0.011);
        total += factor.contribution;
        weights += factor.weight;
      }
      close(weights, 1, 1e-9);
      expect(b.weighted_total).toBe(Math.round(total));
      expect(b.service_score).toBe(b.weighted_total);
    }
  });

  it('projection ROIs follow from the values and the probabilities', async () => {
    const p = (await op('createProjection', { body: { asset_id: 'SVC-WAT-ROLEX-126610LN-2020', current_value: 14250 } })).projection;
    close(SCENARIOS.reduce((s, sc) => s + p.scenarios[sc].probability, 0), 1, 1e-6);
    for (const h of ['12_months', '24_months', '36_months'] as const) {
      let expected = 0;
      for (const sc of SCENARIOS) {
        const point = p.scenarios[sc][h]!;
        close(point.roi_percent, (point.value / p.current_value - 1) * 100, 0.06);
        expected += p.scenarios[sc].probability * point.roi_percent;
      }
      close(p.expected_roi[h]!, expected, 0.06);
    }
    // Scenarios are ordered.
    expect(p.scenarios.conservative['36_months']!.value).toBeLessThanOrEqual(p.scenarios.central['36_months']!.value);
    expect(p.scenarios.central['36_months']!.value).toBeLessThanOrEqual(p.scenarios.optimistic['36_months']!.value);
  });

  it("30-day change: a top mover's change_30d is what its valuation did over the last 30 days", async () => {
    const monthAgo = new Date(NOW.getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
    for (const seg of SEGMENT_IDS) {
      const s = await op('segmentSignals', { params: { segment: seg } });
      expect(parseSignedPercent(s.signals.price.change_30d), seg).toBeTypeOf('number');
      const mover = s.signals.top_movers[0];
      expect(mover, seg).toBeDefined();
      const body = { segment: seg, brand: mover!.brand, model: mover!.model };
      const now = await op('createValuation', { body });
      const then = await op('createValuation', { body, headers: { 'x-sandbox-as-of': monthAgo } });
      const change = (now.estimated_value.mid / then.estimated_value.mid - 1) * 100;
      close(change, parseSignedPercent(mover!.change_30d)!, 0.1);
    }
  });

  it('x-sandbox-as-of values as of a past day, reproducibly', async () => {
    const today = await op('createValuation', { body: rolex });
    const past = await op('createValuation', { body: rolex, headers: { 'x-sandbox-as-of': '2025-09-30' } });
    const pastAgain = await op('createValuation', { body: rolex, headers: { 'x-sandbox-as-of': '2025-09-30' } });
    expect(past.estimated_value).toEqual(pastAgain.estimated_value);
    expect(past.estimated_value.mid).not.toBe(today.estimated_value.mid);
    const explicitToday = await op('createValuation', { body: rolex, headers: { 'x-sandbox-as-of': TODAY } });
    expect(explicitToday.estimated_value).toEqual(today.estimated_value);
  });
});

describe('determinism', () => {
  const strip = (x: unknown) => JSON.parse(JSON.stringify(x, (k, v) => (k === 'id' || k === 'batch_id' ? undefined : v)));

  it('the same request gets the same answer, across calls and across sandboxes', async () => {
    const body = { assets: [rolex, birkin, petrus, banksy] };
    const a = await op('batchValuations', { body });
    const b = await op('batchValuations', { body });
    expect(strip(a)).toEqual(strip(b));
    const other = await start({ now: () => NOW });
    try {
      const t = (await getToken(other.url, 'demo-enterprise')).access_token;
      const r = await call(other.url, 'POST', '/valuations/batch', { token: t, body });
      expect(strip(r.json)).toEqual(strip(a));
      for (const [m, p, bd] of [['GET', '/signals', undefined], ['GET', '/segments/art', undefined], ['POST', '/scores', banksy]] as const) {
        const mine = await call(sb.url, m, p, { token, body: bd });
        const theirs = await call(other.url, m, p, { token: t, body: bd });
        expect(theirs.json, p).toEqual(mine.json);
      }
    } finally {
      await other.close();
    }
  });
});

describe('valuation status over time', () => {
  it('a stored valuation reads valid until valid_until, expired after; sandbox headers are accepted', async () => {
    let clock = new Date('2026-03-16T23:00:00.000Z');
    const timed = await start({ now: () => clock });
    try {
      const t = (await getToken(timed.url, 'demo-starter')).access_token;
      // x-sandbox-mode and x-cli-key are accepted and ignored.
      const created = await call(timed.url, 'POST', '/valuations', { token: t, body: birkin, headers: { 'x-sandbox-mode': 'true', 'x-cli-key': 'cli-123' } });
      expect(created.status).toBe(200);
      const v = expectShape(OPERATIONS.createValuation.response, created.json);
      expect(Date.parse(v.valid_until!)).toBeGreaterThan(clock.getTime());
      const read = async () => expectShape(OPERATIONS.getValuation.response, (await call(timed.url, 'GET', `/valuations/${v.id}`, { token: t })).json);
      expect((await read()).status).toBe('valid');
      clock = new Date(Date.parse(v.valid_until!) + 1);
      const later = await read();
      expect(later.status).toBe('expired');
      expect(later.estimated_value).toEqual(v.estimated_value);
    } finally {
      await timed.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConfigurationError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  ServiceClient,
  type FetchLike,
} from '../../src/client';
import { SEGMENT_IDS } from '../../src/wire';
import { apiCalls, clientFor, readLog, start, type Sandbox } from './helpers';

let sb: Sandbox;
let client: ServiceClient;

beforeAll(async () => {
  sb = await start();
  client = clientFor(sb, 'demo-enterprise', { tier: 'enterprise' });
});
afterAll(() => sb.close());

const rolex = { segment: 'watches', brand: 'Rolex', model: 'Submariner', reference: '126610LN', year: 2021, condition: 'excellent', box_papers: true } as const;

describe('every operation, against the sandbox over HTTP', () => {
  it('valuations: create, get by id, batch', async () => {
    const v = await client.valuations.create(rolex);
    expect(v.asset_id).toMatch(/^SVC-WAT-ROLEX-126610LN/);
    expect(v.estimated_value.low).toBeLessThanOrEqual(v.estimated_value.mid);
    const got = await client.valuations.get(v.id!);
    expect(got.id).toBe(v.id);
    expect(got.status).toBe('valid');
    const batch = await client.valuations.batch({ assets: [rolex, { segment: 'wine', producer: 'Petrus', title: 'Pomerol', vintage: 2010 }] });
    expect(batch.count).toBe(2);
    expect(batch.valuations[0]!.asset_id).toBe(v.asset_id);
  });

  it('per-call headers: x-sandbox-as-of values as of a past day', async () => {
    const today = await client.valuations.create(rolex);
    const past = await client.valuations.create(rolex, { headers: { 'x-sandbox-as-of': '2025-06-30' } });
    expect(past.asset_id).toBe(today.asset_id);
    expect(past.estimated_value.mid).not.toBe(today.estimated_value.mid);
    const err = (await client.valuations.create(rolex, { headers: { 'x-sandbox-as-of': '2999-01-01' } }).catch((e: unknown) => e)) as BadRequestError;
    expect(err).toBeInstanceOf(BadRequestError);
  });

  it('scores: create, breakdown, batch', async () => {
    const s = await client.scores.create({ segment: 'art', artist: 'Banksy', title: 'Girl with Balloon', year: 2006, medium: 'spray paint', size_cm: { width: 60, height: 80 } });
    expect(s.score.service_score).toBeGreaterThanOrEqual(0);
    const b = await client.scores.breakdown({ asset_id: s.score.asset_id });
    expect(Object.keys(b.breakdown.factors)).toHaveLength(6);
    const batch = await client.scores.batch({ assets: [{ asset_id: s.score.asset_id }, rolex] });
    expect(batch.scores).toHaveLength(2);
  });

  it('projections: create and get', async () => {
    const p = await client.projections.create({ asset_id: 'SVC-WAT-ROLEX-126610LN-2021', current_value: 14_000, horizons: [12, 36] });
    expect(p.projection.scenarios.central['12_months']).toBeDefined();
    expect(p.projection.scenarios.central['24_months']).toBeUndefined();
    const again = await client.projections.get(p.projection.id);
    expect(again.projection.id).toBe(p.projection.id);
  });

  it('signals: overview, one segment (typed loosely), alerts', async () => {
    const o = await client.signals.overview();
    expect(Object.keys(o.signals.segments).length).toBeGreaterThan(0);
    const w = await client.signals.segment('Watches');
    expect(w.segment).toBe('watches');
    const a = await client.signals.alerts();
    expect(a.count).toBe(a.alerts.length);
  });

  it('portfolio: create, get, update, performance', async () => {
    const created = await client.portfolio.create({
      name: 'Family office',
      assets: [
        { ...rolex, purchase_price: 9_000, purchase_date: '2019-04-01' },
        { segment: 'wine', producer: 'Petrus', vintage: 2010, quantity: 6, purchase_price: 20_000, purchase_date: '2020-01-15' },
      ],
    });
    const id = created.portfolio.id;
    expect(created.portfolio.asset_count).toBe(2);
    expect((await client.portfolio.get(id)).portfolio.summary.asset_count).toBe(2);
    expect((await client.portfolio.update(id, { name: 'Renamed' })).portfolio.name).toBe('Renamed');
    expect((await client.portfolio.performance(id)).performance.portfolio_id).toBe(id);
  });

  it('exit: analyse and channels (all, or one segment)', async () => {
    const e = await client.exit.analyse({ asset_id: 'SVC-WAT-ROLEX-126610LN-2021', current_value: 14_000, urgency: 'urgent' });
    expect(e.exit_strategy.channels.primary.name).toBeTruthy();
    const all = await client.exit.channels();
    const art = await client.exit.channels({ segment: 'art' });
    expect(art.count).toBeLessThanOrEqual(all.count);
    expect(art.channels.every((c) => c.segments.includes('art'))).toBe(true);
  });

  it('segments: list and detail', async () => {
    const list = await client.segments.list();
    expect(list.segments.map((s) => s.id).sort()).toEqual([...SEGMENT_IDS].sort());
    expect((await client.segments.get('real estate')).segment.id).toBe('real_estate');
  });
});

describe('inputs are checked before anything is sent', () => {
  it('an unknown segment fails fast naming the field, the value and what is allowed', async () => {
    const before = apiCalls(await readLog(sb)).length;
    const bad = { ...rolex, segment: 'yachts' } as unknown as typeof rolex;
    const err = await client.valuations.create(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    const e = err as BadRequestError;
    expect(e.field).toBe('segment');
    expect(e.allowedValues).toEqual([...SEGMENT_IDS]);
    expect(e.message).toBe(`segment 'yachts' is not one of ${SEGMENT_IDS.join(', ')}`);
    const e2 = (await client.signals.segment('yachts').catch((x: unknown) => x)) as BadRequestError;
    expect(e2).toBeInstanceOf(BadRequestError);
    expect(e2.message).toContain("segment 'yachts' is not one of watches, art");
    const e3 = (await client.valuations.batch({ assets: [rolex, { segment: 'watches', brand: 'Rolex' } as never] }).catch((x: unknown) => x)) as BadRequestError;
    expect(e3.field).toBe('assets[1].model');
    const e4 = (await client.projections.create({ asset_id: 'SVC-WAT-ROLEX-X', current_value: -5 }).catch((x: unknown) => x)) as BadRequestError;
    expect(e4.field).toBe('current_value');
    const e5 = (await client.valuations.get('').catch((x: unknown) => x)) as BadRequestError;
    expect(e5.field).toBe('id');
    expect(apiCalls(await readLog(sb)).length).toBe(before);
  });

  it('maps service errors to typed errors with the service message', async () => {
    const nf = (await client.valuations.get('val_doesnotexist').catch((x: unknown) => x)) as NotFoundError;
    expect(nf).toBeInstanceOf(NotFoundError);
    expect(nf.status).toBe(404);
    const starter = clientFor(sb, 'demo-starter', { tier: 'starter' });
    const pd = (await starter.projections.create({ asset_id: 'SVC-WAT-ROLEX-126610LN', current_value: 10 }).catch((x: unknown) => x)) as PermissionDeniedError;
    expect(pd).toBeInstanceOf(PermissionDeniedError);
    expect(pd.action).toBe('check_tier');
    // An id that is no asset id passes the client's schema; the service names the field.
    const br = (await client.scores.breakdown({ asset_id: 'not-an-asset' }).catch((x: unknown) => x)) as BadRequestError;
    expect(br).toBeInstanceOf(BadRequestError);
    expect(br.field).toBe('asset_id');
    expect(br.message).toContain("'not-an-asset'");
  });

  it('a response that breaks the contract is an InvalidResponseError naming operation and field', async () => {
    // The real sandbox answers; a middlebox on the way back drops one field.
    const tampering: FetchLike = async (url, init) => {
      const res = await fetch(url, init);
      if (!url.endsWith('/valuations')) return res;
      const body = (await res.json()) as { estimated_value: Record<string, unknown> };
      delete body.estimated_value.mid;
      return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
    };
    const c = clientFor(sb, 'demo-enterprise', { fetch: tampering });
    const err = (await c.valuations.create(rolex).catch((x: unknown) => x)) as InvalidResponseError;
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.operation).toContain('createValuation');
    expect(err.field).toBe('estimated_value.mid');
    expect(err.message).toContain('estimated_value.mid');
  });

  it('refuses an unusable configuration with a sentence', () => {
    expect(() => new ServiceClient({ baseUrl: 'localhost:1' })).toThrow(ConfigurationError);
    expect(() => new ServiceClient({ baseUrl: sb.url, clientId: 'x' })).toThrow(/clientId and clientSecret go together/);
    expect(() => new ServiceClient({ baseUrl: sb.url, tier: 'gold' as never })).toThrow(/tier 'gold' is not one of starter, pro, enterprise/);
  });
});

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BatchValuationResult,
  Breakdown,
  CONDITIONS,
  ExitStrategy,
  PortfolioAnalytics,
  Projection,
  ScoreObject,
  Valuation,
  type CanonicalAsset,
  type ValuationRequest,
} from '../../src/wire';
import { createMarket, withParticulars, type MarketContext } from '../../src/sandbox/market';
import { catalogue, displayModel } from '../../src/sandbox/market/catalogue';
import { call, expectShape, getToken, start, type Sandbox } from '../sandbox/helpers';

/**
 * Ids are keys (issue 10): every id the sandbox hands out, sent back, answers for the same asset
 * with the same figures, in every operation that takes an asset_id. The bulk runs on the market
 * model (the numbers' owner); a sample runs over HTTP through every operation.
 */

const DAY = '2026-11-21';
const NOW = new Date(`${DAY}T12:00:00Z`);
const ctx: MarketContext = { day: DAY, now: NOW, currency: 'USD' };
const cat = catalogue();

/** Sizes as people type them across segments: shoe sizes, bag widths, bottle formats, floor areas. */
const SIZES = ['9', '10.5', '35', '25', 'magnum', 'bottle', '400sqm', '54', 'XL'];
/** Makers the catalogue does not list, several words, accents and punctuation: the brand codes that were misread. */
const INVENTED_BRANDS = ['Maison Éclat du Nord', 'Jean-Michel Basquiat Estate', 'Château Lafite Rothschild', 'Hermès', 'Domaine Ölberg & Söhne', 'Atelier', 'Ünique Watch Co'];
const WORDS = ['Royal', 'Oak', 'Nautilus', 'Lune', 'Édition', 'No', '7', 'P15', 'Grand', 'Bleu', 'Série', 'XII', '1982', 'Untitled'];

type Req = ValuationRequest;

/** One holding's descriptors: a catalogue asset as a list shows it (or by its reference), any year, size, condition. */
const catalogueRequest: fc.Arbitrary<Req> = fc
  .record({
    entry: fc.constantFrom(...cat.assets),
    byReference: fc.boolean(),
    year: fc.option(fc.integer({ min: 1900, max: 2026 }), { nil: undefined }),
    ownYear: fc.boolean(),
    size: fc.option(fc.constantFrom(...SIZES), { nil: undefined }),
    condition: fc.option(fc.constantFrom(...CONDITIONS), { nil: undefined }),
    box_papers: fc.option(fc.boolean(), { nil: undefined }),
    quantity: fc.integer({ min: 1, max: 12 }),
  })
  .map(({ entry, byReference, year, ownYear, size, condition, box_papers, quantity }) => ({
    segment: entry.segment,
    brand: entry.brand,
    model: displayModel(entry),
    reference: byReference ? entry.reference : undefined,
    year: ownYear ? entry.year : year,
    size: size ?? entry.size,
    condition,
    box_papers,
    quantity,
  }));

/** Descriptors of assets the catalogue does not list (unknown models and makers), in every segment. */
const inventedRequest: fc.Arbitrary<Req> = fc.record({
  segment: fc.constantFrom(...([...new Set(cat.assets.map((a) => a.segment))] as CanonicalAsset['segment'][])),
  brand: fc.constantFrom(...INVENTED_BRANDS),
  model: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')),
  reference: fc.option(fc.stringMatching(/^[A-Z0-9]{2,6}[/.-]?[A-Z0-9]{0,6}$/), { nil: undefined }),
  year: fc.option(fc.integer({ min: 1900, max: 2026 }), { nil: undefined }),
  size: fc.option(fc.constantFrom(...SIZES), { nil: undefined }),
  condition: fc.option(fc.constantFrom(...CONDITIONS), { nil: undefined }),
  quantity: fc.integer({ min: 1, max: 5 }),
});

const anyRequest = fc.oneof({ arbitrary: catalogueRequest, weight: 4 }, { arbitrary: inventedRequest, weight: 1 });

function canonical(r: Req): CanonicalAsset {
  return { segment: r.segment, brand: r.brand!, model: r.model!, reference: r.reference, year: r.year, size: r.size, condition: r.condition, box_papers: r.box_papers, quantity: r.quantity ?? 1 };
}

/** The particulars of a holding that travel with an id (the id names the asset, these describe the holding). */
function byIdRequest(r: Req, assetId: string): Req {
  return { segment: r.segment, asset_id: assetId, condition: r.condition, box_papers: r.box_papers, quantity: r.quantity };
}

describe('ids are keys: the market model', () => {
  const market = createMarket();
  /** A second market that has never seen a description: what a restarted sandbox knows about an id. */
  const restarted = createMarket();
  let cases = 0;

  const mismatches: string[] = [];

  /** Descriptors -> id -> every operation by id: the same id and the same figures, in this market and a fresh one. */
  function roundTrip(r: Req): void {
    const v = market.value(canonical(r), ctx);
    const want = JSON.stringify([v.asset_id, v.estimated_value, v.confidence, v.market_validated, v.service_score]);
    for (const m of [market, restarted]) {
      const byId = m.assetForId(v.asset_id);
      if (!byId) {
        mismatches.push(`${v.asset_id}: not read back`);
        continue;
      }
      const again = m.value(withParticulars(byId, r), ctx);
      const s = m.score(byId, ctx);
      const p = m.projection(byId, v.estimated_value.mid, [12], ctx);
      const x = m.exitStrategy(byId, v.estimated_value.mid, 'flexible', ctx);
      const got = {
        valuation: JSON.stringify([again.asset_id, again.estimated_value, again.confidence, again.market_validated, again.service_score]),
        score: JSON.stringify([s.asset_id, v.estimated_value, s.confidence, s.market_validated, s.service_score]),
        breakdown: JSON.stringify([m.breakdown(byId, ctx).asset_id, v.estimated_value, v.confidence, v.market_validated, v.service_score]),
        projection: JSON.stringify([p.asset_id, v.estimated_value, p.confidence, p.market_validated, v.service_score]),
        exit: JSON.stringify([x.asset_id, v.estimated_value, x.confidence, x.market_validated, v.service_score]),
      };
      for (const [op, text] of Object.entries(got)) if (text !== want) mismatches.push(`${JSON.stringify(r)} ${op}: ${text} != ${want}`);
    }
    cases++;
  }

  it('every catalogue asset x years x sizes, each condition in turn', () => {
    const before = cases;
    const conditions = [undefined, ...CONDITIONS];
    let k = 0;
    for (const e of cat.assets) {
      // No size and no year stand for the catalogue's own (the id then carries the entry's).
      for (const year of [undefined, 1961, 2019]) {
        for (const size of [undefined, '35']) {
          roundTrip({ segment: e.segment, brand: e.brand, model: displayModel(e), reference: e.reference, year, size, condition: conditions[k++ % conditions.length], quantity: 2 });
        }
      }
    }
    console.log(`asset-id round trips (catalogue sweep): ${cases - before} cases, ${mismatches.length} mismatches`);
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(cases - before).toBe(cat.assets.length * 6);
  });

  it('random descriptors, catalogue and invented, multi-word accented makers and size suffixes', () => {
    const before = cases;
    fc.assert(
      fc.property(anyRequest, (r) => {
        const found = mismatches.length;
        roundTrip(r);
        return mismatches.length === found;
      }),
      { numRuns: 1500 },
    );
    console.log(`asset-id round trips (fast-check): ${cases - before} cases, ${mismatches.length} mismatches`);
    expect(cases - before).toBe(1500);
  });

  it('ids of the shapes that were misread come back to their own asset (multi-word codes over 8 letters, size parts)', () => {
    const lafite = market.value(canonical({ segment: 'wine', brand: 'Château Lafite Rothschild', model: 'Lafite Rothschild', year: 2018 }), ctx);
    expect(lafite.asset_id).toMatch(/^SVC-WIN-CHALAFROT-/);
    const basquiat = market.value(canonical({ segment: 'art', brand: 'Jean-Michel Basquiat', model: 'Untitled (drawing on paper)' }), ctx);
    expect(basquiat.asset_id).toMatch(/^SVC-ART-JEAMICBAS-/);
    const birkin = market.value(canonical({ segment: 'bags', brand: 'Hermès', model: 'Birkin 35 Togo', size: '35' }), ctx);
    expect(birkin.asset_id).toMatch(/-S35$/);
    for (const v of [lafite, basquiat, birkin]) {
      const again = restarted.value(restarted.assetForId(v.asset_id)!, ctx);
      expect([again.asset_id, again.estimated_value.mid, again.brand]).toEqual([v.asset_id, v.estimated_value.mid, v.brand]);
    }
  });

  it('an id that spells a catalogue asset another way is answered under its own id, at that asset\'s figures', () => {
    const nautilus = market.value(canonical({ segment: 'watches', brand: 'Patek Philippe', model: 'Nautilus', reference: '5711/1A', year: 2019 }), ctx);
    for (const alias of ['SVC-WAT-PATEK-57111A-2019', 'SVC-WAT-PATPHI-57111A010-2019']) {
      const v = restarted.value(restarted.assetForId(alias)!, ctx);
      expect([v.asset_id, v.estimated_value.mid, v.confidence]).toEqual([alias, nautilus.estimated_value.mid, nautilus.confidence]);
    }
  });
});

describe('ids are keys: over HTTP, every operation that takes an asset_id', () => {
  let sb: Sandbox;
  let token: string;
  const post = async (path: string, body: unknown) => {
    const r = await call(sb.url, 'POST', path, { token, body });
    if (r.status !== 200 && r.status !== 201) throw new Error(`${path} ${r.status}: ${JSON.stringify(r.json)} for ${JSON.stringify(body)}`);
    return r.json as Record<string, unknown>;
  };

  beforeAll(async () => {
    sb = await start({ now: () => NOW, accounts: [{ client_id: 'prop', client_secret: 'prop-secret', tier: 'enterprise', per_minute: 1_000_000, per_day: 10_000_000 }] });
    token = (await getToken(sb.url, 'prop')).access_token;
  });
  afterAll(() => sb.close());

  it('descriptors -> id -> valuation, batch, score, breakdown, projection, exit and portfolio by id: same id, same figures', async () => {
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(anyRequest, async (r) => {
        const v = expectShape(Valuation, await post('/valuations', r));
        const id = v.asset_id;
        const again = expectShape(Valuation, await post('/valuations', byIdRequest(r, id)));
        expect([again.asset_id, again.estimated_value, again.confidence, again.market_validated, again.service_score]).toEqual([id, v.estimated_value, v.confidence, v.market_validated, v.service_score]);

        const batch = expectShape(BatchValuationResult, await post('/valuations/batch', { assets: [byIdRequest(r, id), r] }));
        for (const item of batch.valuations) expect([item.asset_id, item.estimated_value.mid, item.confidence]).toEqual([id, v.estimated_value.mid, v.confidence]);

        const s = expectShape(ScoreObject, ((await post('/scores', { asset_id: id })) as { score: unknown }).score);
        expect([s.asset_id, s.service_score, s.confidence, s.market_validated]).toEqual([id, v.service_score, v.confidence, v.market_validated]);
        const b = expectShape(Breakdown, ((await post('/scores/breakdown', { asset_id: id })) as { breakdown: unknown }).breakdown);
        expect([b.asset_id, b.service_score]).toEqual([id, v.service_score]);
        const p = expectShape(Projection, ((await post('/projections', { asset_id: id, current_value: v.estimated_value.mid })) as { projection: unknown }).projection);
        expect([p.asset_id, p.confidence, p.market_validated]).toEqual([id, v.confidence, v.market_validated]);
        const x = expectShape(ExitStrategy, ((await post('/exit', { asset_id: id, current_value: v.estimated_value.mid })) as { exit_strategy: unknown }).exit_strategy);
        expect([x.asset_id, x.confidence, x.market_validated]).toEqual([id, v.confidence, v.market_validated]);

        const created = (await post('/portfolio', { name: 'ids', assets: [{ ...byIdRequest(r, id), brand: r.brand, purchase_price: 1000, purchase_date: '2020-01-02' }] })) as { portfolio: { id: string } };
        const got = await call(sb.url, 'GET', `/portfolio/${created.portfolio.id}`, { token });
        const held = expectShape(PortfolioAnalytics, (got.json as { portfolio: unknown }).portfolio).assets[0]!;
        expect([held.asset_id, held.current_value, held.service_score]).toEqual([id, v.estimated_value.mid, v.service_score]);
        cases++;
      }),
      { numRuns: 40 },
    );
    console.log(`asset-id round trips over HTTP: ${cases} cases x 8 operations, 0 mismatches`);
    expect(cases).toBe(40);
  }, 120_000);

  it('a valuation by an id that does not parse is a 400 naming asset_id; in a batch it names the item', async () => {
    const one = await call(sb.url, 'POST', '/valuations', { token, body: { segment: 'watches', asset_id: 'ROLEX-SUB' } });
    expect(one.status).toBe(400);
    expect((one.json as { error: { field: string } }).error.field).toBe('asset_id');
    const batch = await call(sb.url, 'POST', '/valuations/batch', { token, body: { assets: [{ segment: 'watches', brand: 'Rolex', model: 'Submariner' }, { segment: 'watches', asset_id: 'nope' }] } });
    expect(batch.status).toBe(400);
    expect((batch.json as { error: { field: string } }).error.field).toBe('assets[1].asset_id');
  });
});

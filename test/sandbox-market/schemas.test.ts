import { describe, expect, it } from 'vitest';
import { Breakdown, ExitStrategy, PortfolioCreated, Projection, ScoreObject, Valuation, type SegmentId } from '../../src/wire';
import { createMarket } from '../../src/sandbox/market';
import { catalogue } from '../../src/sandbox/market/catalogue';
import { asset, ctxFor } from './helpers';

const market = createMarket({ seed: 99 });
const ProjectionOut = Projection.omit({ id: true });

describe('every output parses against the wire schemas', () => {
  const unknowns = catalogue().assets.map((a, i) =>
    asset({ segment: a.segment as SegmentId, brand: i % 2 ? a.brand : `Maker ${i}`, model: `Piece ${i}`, year: 1990 + (i % 30), condition: (['excellent', 'very_good', 'good', 'fair'] as const)[i % 4], box_papers: i % 3 === 0 }),
  );
  const known = catalogue().assets.map((a) => market.assetForId(a.asset_id)!);

  it('for every catalogue asset and as many unknown ones, in three currencies and on past days', () => {
    const days = ['2026-11-21', '2024-02-29', '2011-06-30'];
    let i = 0;
    for (const a of [...known, ...unknowns]) {
      const ctx = ctxFor(days[i % 3], (['USD', 'EUR', 'GBP'] as const)[i % 3]);
      i++;
      const v = Valuation.parse(market.value(a, ctx));
      expect(v.estimated_value.mid).toBeGreaterThan(0);
      ScoreObject.parse(market.score(a, ctx));
      Breakdown.parse(market.breakdown(a, ctx));
      ProjectionOut.parse(market.projection(a, v.estimated_value.mid, [12, 24, 36], ctx));
      ExitStrategy.parse(market.exitStrategy(a, v.estimated_value.mid, 'standard', ctx));
    }
  });

  it('for a created portfolio summary', () => {
    const created = market.portfolioCreated(
      {
        id: 'port_x',
        name: 'x',
        currency: 'GBP',
        created_at: '2026-11-21T00:00:00Z',
        updated_at: '2026-11-21T00:00:00Z',
        assets: [{ segment: 'cards', brand: 'Pokémon', model: 'Charizard', purchase_price: 0, purchase_date: '2026-11-20' }],
      },
      ctxFor(undefined, 'GBP'),
    );
    PortfolioCreated.parse({ id: 'port_x', name: 'x', created_at: '2026-11-21T00:00:00Z', ...created });
    expect(created.total_return_percent).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, ServiceClient } from '../../src/client';
import { startSandbox } from '../../src/sandbox';
import { catalogue, displayModel } from '../../src/sandbox/market/catalogue';
import { PortfolioAssetInput } from '../../src/wire';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** Portfolio items that carry an asset_id need no maker: the id is the asset (docs/decisions.md). */
describe('portfolio items given by asset_id alone', () => {
  let sb: Sandbox;
  let client: ServiceClient;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, quiet: true });
    client = new ServiceClient({ baseUrl: sb.url, clientId: 'demo-enterprise', clientSecret: 'demo-enterprise-secret', rateLimitKey: `portfolio-asset-id-${sb.url}` });
  });
  afterAll(() => sb.close());

  it('the wire takes an item with asset_id and no maker, and still asks a maker of an item without one', () => {
    expect(PortfolioAssetInput.safeParse({ segment: 'wine', asset_id: 'SVC-WIN-X-Y-2018', purchase_price: 1, purchase_date: '2020-01-01' }).success).toBe(true);
    const without = PortfolioAssetInput.safeParse({ segment: 'wine', purchase_price: 1, purchase_date: '2020-01-01' });
    expect(without.success).toBe(false);
    expect(without.error?.issues.map((i) => i.path.join('.'))).toContain('brand');
  });

  it('the sandbox values such an item as the asset its id names: same id, same value as the valuation that issued it', async () => {
    // An id the sandbox really issues, with a size part (-S..): the kind the old re-derivation lost.
    const sized = catalogue().assets.find((a) => a.size)!;
    const valuation = await client.valuations.create({ segment: sized.segment, brand: sized.brand, model: displayModel(sized), reference: sized.reference, size: sized.size, year: sized.year });
    expect(valuation.asset_id).toMatch(/-S[0-9A-Z]+(-\d{4})?$/);

    const created = await client.portfolio.create({
      name: 'By id',
      currency: 'USD',
      assets: [{ segment: sized.segment, asset_id: valuation.asset_id, purchase_price: 1000, purchase_date: '2020-01-02' }],
    });
    const { portfolio } = await client.portfolio.get(created.portfolio.id);
    expect(portfolio.assets.map((a) => a.asset_id)).toEqual([valuation.asset_id]);
    expect(portfolio.assets[0]!.current_value).toBe(valuation.estimated_value.mid);
  });

  it('an item with no maker and an asset_id that names no asset is refused on that item\'s asset_id', async () => {
    const refused = client.portfolio.create({
      name: 'Bad id',
      assets: [
        { segment: 'watches', brand: 'Rolex', model: 'Submariner', purchase_price: 1000, purchase_date: '2020-01-02' },
        { segment: 'watches', asset_id: 'not-an-id', purchase_price: 1000, purchase_date: '2020-01-02' },
      ],
    });
    await expect(refused).rejects.toBeInstanceOf(BadRequestError);
    await expect(refused).rejects.toMatchObject({ message: expect.stringContaining('assets[1].asset_id') });
  });
});

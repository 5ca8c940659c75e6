import { ServiceClient } from '../../src/client';
import { catalogue, displayModel, type KnownAsset } from '../../src/sandbox/market/catalogue';
import type { ValuationRequest } from '../../src/wire';

/** Has a character outside ASCII (Hermès, Château, Dom Pérignon). */
const accented = (a: KnownAsset) => /[^\x00-\x7f]/.test(`${a.brand} ${displayModel(a)}`);
const multiWord = (a: KnownAsset) => a.brand.trim().split(/\s+/).length > 1;

/**
 * `count` asset ids exactly as the sandbox issues them: catalogue assets described as a list
 * shows them (brand, model, reference, size; every third with a year), valued by the sandbox,
 * and the ids it answered with taken as they are. Multi-word brands, accents and sizes come
 * first, the ids whose round trip went wrong before. No id here is typed by hand.
 */
export async function realCatalogueIds(serviceUrl: string, account: { client_id: string; client_secret: string }, count: number): Promise<string[]> {
  const all = catalogue().assets;
  const ordered = [...all.filter((a) => multiWord(a) || accented(a) || a.size), ...all.filter((a) => !(multiWord(a) || accented(a) || a.size))];
  const requests: ValuationRequest[] = ordered.map((a, i) => ({
    segment: a.segment,
    brand: a.brand,
    model: displayModel(a),
    reference: a.reference,
    size: a.size,
    year: i % 3 === 0 ? 2010 + (i % 12) : a.year,
  }));
  const client = new ServiceClient({ baseUrl: serviceUrl, clientId: account.client_id, clientSecret: account.client_secret, rateLimitKey: `real-ids-${serviceUrl}` });
  const answers = await client.valueAll(requests);
  const ids: string[] = [];
  for (const a of answers) {
    if (a.ok && !ids.includes(a.value.asset_id)) ids.push(a.value.asset_id);
    if (ids.length === count) return ids;
  }
  throw new Error(`The sandbox issued only ${ids.length} distinct catalogue ids; ${count} asked.`);
}

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHoldings } from '../../src/holdings/load';
import { valuationRequest } from '../../src/holdings/requests';
import type { Holding } from '../../src/holdings/types';
import { BatchValuationResult } from '../../src/wire';
import { CATALOGUE, isUnique } from '../../examples/catalogue';
import { call, expectShape, getToken, start, type Sandbox } from '../sandbox/helpers';

/**
 * The demo's holdings are valued plausibly against what they cost (issue 16), through the
 * sandbox as the report job asks it. The band (docs/decisions.md): between 0.35x and
 * 1.75 x 1.10^years x the purchase price, years being how long the holding has been held.
 */
const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '../..');
const FILES = ['meridian-wealth-clients.csv', 'hartley-family-office.xlsx', 'ng-collectibles.json'].map((f) => join(ROOT, 'examples', f));
const NOW = new Date('2026-11-21T12:00:00Z');
/** A month-end the report job values as of, and the sandbox's today. */
const DAYS = ['2026-10-31', '2026-11-21'];

function plausibleBand(years: number): [low: number, high: number] {
  return [0.35, 1.75 * Math.pow(1.1, years)];
}

const YEAR_MS = 365.25 * 86_400_000;

let sb: Sandbox;
let token: string;
let holdings: (Holding & { portfolio: string })[];

beforeAll(async () => {
  sb = await start({ now: () => NOW, accounts: [{ client_id: 'demo', client_secret: 'demo-secret', tier: 'enterprise', per_minute: 100_000, per_day: 1_000_000 }] });
  token = (await getToken(sb.url, 'demo')).access_token;
  const { portfolios } = await loadHoldings(FILES, { asOf: DAYS[0]! });
  holdings = portfolios.flatMap((p) => p.holdings.map((h) => ({ ...h, portfolio: p.name })));
});
afterAll(() => sb.close());

describe('the demo holdings', () => {
  it('every example holding is valued within the plausible band of its cost, on a month-end and today', async () => {
    expect(holdings.length).toBeGreaterThanOrEqual(250);
    const outside: string[] = [];
    let checked = 0;
    for (const day of DAYS) {
      for (let i = 0; i < holdings.length; i += 50) {
        const chunk = holdings.slice(i, i + 50);
        const r = await call(sb.url, 'POST', '/valuations/batch', { token, body: { assets: chunk.map(valuationRequest) }, headers: { 'x-sandbox-as-of': day } });
        expect(r.status).toBe(200);
        const batch = expectShape(BatchValuationResult, r.json);
        batch.valuations.forEach((v, k) => {
          const h = chunk[k]!;
          const years = (Date.parse(day) - Date.parse(h.purchaseDate)) / YEAR_MS;
          const [low, high] = plausibleBand(years);
          const ratio = v.estimated_value.mid / h.purchasePrice;
          checked++;
          if (!(ratio >= low && ratio <= high)) {
            outside.push(`${day} ${h.portfolio} ${h.segment} ${h.brand} ${h.model}: ${ratio.toFixed(2)}x cost after ${years.toFixed(1)} years (band ${low}-${high.toFixed(2)}x), ${v.asset_id}`);
          }
        });
      }
    }
    expect(outside).toEqual([]);
    expect(checked).toBe(holdings.length * DAYS.length);
  });

  it('a one-of-a-kind asset (a property, a one-off artwork, a car) is held once across all the example portfolios', () => {
    const unique = CATALOGUE.filter(isUnique);
    const key = (h: { segment: string; brand: string; model: string }) => `${h.segment}|${h.brand}|${h.model}`;
    const uniqueKeys = new Set(unique.map(key));
    const held = holdings.filter((h) => uniqueKeys.has(key(h)) || h.segment === 'real_estate' || h.segment === 'automobiles').map(key);
    expect(held.length).toBeGreaterThanOrEqual(10);
    expect(held.filter((k, i) => held.indexOf(k) !== i)).toEqual([]);
    // Every portfolio that lists properties holds some.
    for (const name of ['Lindqvist Trust', 'Hartley Foundation', 'Ng Collectibles']) {
      expect(holdings.some((h) => h.portfolio === name && h.segment === 'real_estate'), name).toBe(true);
    }
  });
});

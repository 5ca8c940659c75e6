import type { CanonicalAsset, Currency } from '../../src/wire';
import type { MarketContext } from '../../src/sandbox/market';

export const DAY = '2026-11-21';

export function ctxFor(day = DAY, currency: Currency = 'USD'): MarketContext {
  return { day, now: new Date(`${day}T12:00:00Z`), currency };
}

export function asset(a: Omit<CanonicalAsset, 'quantity'> & { quantity?: number }): CanonicalAsset {
  return { quantity: 1, ...a };
}

export const DAYTONA = asset({ segment: 'watches', brand: 'Rolex', model: 'Cosmograph Daytona', reference: '116500LN' });
export const NAUTILUS = asset({ segment: 'watches', brand: 'Patek Philippe', model: 'Nautilus', reference: '5711/1A-010' });
export const LAFITE_2010 = asset({ segment: 'wine', brand: 'Château Lafite Rothschild', model: 'Grand Vin', year: 2010 });

import type { Holding } from '../../src/holdings/types';

/**
 * What one unit of a holding's quantity is. The service counts wine in cases of 12 × 75 cl,
 * unless the holding's size says bottle or magnum (docs/decisions.md, "Wine quantity").
 */
export function quantityUnit(h: Pick<Holding, 'segment' | 'size'>): { one: string; many: string } {
  if (h.segment !== 'wine') return { one: 'item', many: 'items' };
  const size = h.size?.toLowerCase() ?? '';
  if (size.includes('magnum')) return { one: 'magnum', many: 'magnums' };
  if (size.includes('bottle')) return { one: 'bottle', many: 'bottles' };
  return { one: 'case of 12 × 75 cl', many: 'cases of 12 × 75 cl' };
}

/** "Rolex Submariner Date 126610LN (2021)", "Banksy — Girl with Balloon (2004)", "Pétrus Pomerol 2010 × 6 cases of 12 × 75 cl". */
export function describeHolding(h: Holding): string {
  const maker = h.segment === 'art' ? `${h.brand} — ${h.model}` : `${h.brand} ${h.model}`;
  const ref = h.reference && !h.model.includes(h.reference) ? ` ${h.reference}` : '';
  const size = h.size && h.segment !== 'wine' ? `, size ${h.size}` : '';
  const year = h.year !== undefined ? ` (${h.year})` : '';
  const unit = quantityUnit(h);
  // A single wine case says so too: "× 1 case of 12" is what the value is for.
  const qty = h.quantity > 1 ? ` × ${h.quantity}${h.segment === 'wine' ? ` ${unit.many}` : ''}` : h.segment === 'wine' ? ` × 1 ${unit.one}` : '';
  return `${maker}${ref}${year}${size}${qty}`;
}

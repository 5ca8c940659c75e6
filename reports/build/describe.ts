import type { Holding } from '../../src/holdings/types';

/** "Rolex Submariner Date 126610LN (2021)", "Banksy — Girl with Balloon (2004)", "Pétrus Pomerol 2010 × 6". */
export function describeHolding(h: Holding): string {
  const maker = h.segment === 'art' ? `${h.brand} — ${h.model}` : `${h.brand} ${h.model}`;
  const ref = h.reference && !h.model.includes(h.reference) ? ` ${h.reference}` : '';
  const size = h.size ? `, size ${h.size}` : '';
  const year = h.year !== undefined ? ` (${h.year})` : '';
  const qty = h.quantity > 1 ? ` × ${h.quantity}` : '';
  return `${maker}${ref}${year}${size}${qty}`;
}

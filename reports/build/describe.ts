import type { Translator } from '../../src/i18n';
import type { Holding } from '../../src/holdings/types';

/**
 * What one unit of a holding's quantity is. The service counts wine in cases of 12 × 75 cl,
 * unless the holding's size says bottle or magnum (docs/decisions.md, "Wine quantity").
 */
function unitKind(h: Pick<Holding, 'segment' | 'size'>): 'item' | 'bottle' | 'magnum' | 'case' {
  if (h.segment !== 'wine') return 'item';
  const size = h.size?.toLowerCase() ?? '';
  if (size.includes('magnum')) return 'magnum';
  if (size.includes('bottle')) return 'bottle';
  return 'case';
}

/** The unit of a holding's quantity in the client's language, in the plural its count takes ("case of 12 × 75 cl", "cases of 12 × 75 cl"). */
export function quantityUnit(h: Pick<Holding, 'segment' | 'size' | 'quantity'>, tr: Translator, count = h.quantity): string {
  return tr.t('notes.unit', { unit: unitKind(h), count });
}

/**
 * "Rolex Submariner Date 126610LN (2021)", "Banksy — Girl with Balloon (2004)", "Pétrus Pomerol 2010 × 6 cases of 12 × 75 cl":
 * the names as the client wrote them (not translated), the size and the wine's unit in the client's language.
 */
export function describeHolding(h: Holding, tr: Translator): string {
  const maker = h.segment === 'art' ? `${h.brand} — ${h.model}` : `${h.brand} ${h.model}`;
  const ref = h.reference && !h.model.includes(h.reference) ? ` ${h.reference}` : '';
  const size = h.size && h.segment !== 'wine' ? `, ${tr.t('notes.size', { size: h.size })}` : '';
  const year = h.year !== undefined ? ` (${h.year})` : '';
  const count = Number.isInteger(h.quantity) ? tr.number(h.quantity) : String(h.quantity);
  // A single wine case says so too: "× 1 case of 12" is what the value is for.
  const qty = h.quantity > 1 ? ` × ${count}${h.segment === 'wine' ? ` ${quantityUnit(h, tr)}` : ''}` : h.segment === 'wine' ? ` × 1 ${quantityUnit(h, tr, 1)}` : '';
  return `${maker}${ref}${year}${size}${qty}`;
}

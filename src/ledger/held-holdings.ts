import type { Holding } from '../holdings/types';
import { parseAssetId } from '../wire';
import type { LedgerEntry, LedgerSource, Lot } from './types';
import { BOTTLE_SIZE, BOTTLES_PER_CASE, bottleAssetId, isWhole } from './units';

/**
 * What a ledger holds on the as-of date, as holdings to value (issue 23): one holding per lot, so
 * each keeps its own purchase date and cost (the report groups one asset's lines into one
 * position). A lot bought by a holdings-file row is that holding with what is left of it (a
 * partial sale reduces its quantity and cost); one bought by a transactions row is the asset its
 * descriptors (or its asset id) name. A wine case partly sold is held as bottles (valuedAs).
 */
export function heldHoldings(lots: readonly Lot[], openedBy: (source: LedgerSource) => { holding?: Holding; entry?: LedgerEntry }): Holding[] {
  const out: Holding[] = [];
  for (const lot of lots) {
    const { holding, entry } = openedBy(lot.source);
    const as = valuedAs(lot);
    if (holding) {
      out.push({ ...holding, quantity: as.quantity, purchasePrice: lot.cost, ...(as.assetId !== undefined ? { assetId: as.assetId, size: as.size } : {}) });
      continue;
    }
    const asset = entry?.asset ?? assetFromId(lot.assetId);
    if (!asset) continue; // not reached: the reader refuses a buy whose asset it cannot name
    const h: Holding = {
      portfolio: lot.portfolio,
      source: { ...lot.source },
      segment: asset.segment,
      assetId: as.assetId ?? lot.assetId,
      brand: asset.brand,
      model: asset.model,
      quantity: as.quantity,
      purchasePrice: lot.cost,
      purchaseDate: lot.opened,
      currency: lot.currency,
    };
    if (asset.byId) h.assetIdGiven = true;
    if (asset.reference !== undefined) h.reference = asset.reference;
    if (asset.year !== undefined) h.year = asset.year;
    const size = as.assetId !== undefined ? as.size : asset.size;
    if (size !== undefined) h.size = size;
    if (entry?.notes !== undefined) h.notes = entry.notes;
    // The lot's cover as the row that opened it states it (issue 37).
    if (entry?.cover !== undefined) h.cover = entry.cover;
    if (entry?.coverRefused) h.coverRefused = true;
    out.push(h);
  }
  return out;
}

/**
 * What a lot is valued as. A wine lot bought by the case stays cases while whole cases are left;
 * once part of a case is sold the rest is bottles (12 to a case of 12 × 75 cl), valued as bottles
 * in every later month. Any other lot is its opening row's asset, in its unit (assetId undefined).
 */
function valuedAs(lot: Lot): { quantity: number; assetId?: string; size?: string } {
  // A lot bought by the bottle is its opening row's bottle already.
  if (!lot.stock || lot.stock.unit === 'bottle') return { quantity: lot.quantity };
  const cases = lot.quantity / BOTTLES_PER_CASE;
  if (lot.stock.unit === 'case' && isWhole(cases)) return { quantity: Math.round(cases), assetId: lot.stock.id, size: undefined };
  return { quantity: Math.round(lot.quantity), assetId: bottleAssetId(lot.stock.id), size: BOTTLE_SIZE };
}

/** The descriptors an asset id encodes, for a lot whose row named only the id. */
function assetFromId(id: string): NonNullable<LedgerEntry['asset']> | undefined {
  const parts = parseAssetId(id);
  if (!parts) return undefined;
  return { segment: parts.segment, brand: parts.brand, model: parts.ref, reference: parts.ref, ...(parts.year !== undefined ? { year: parts.year } : {}), byId: true };
}

/** A ledger row's key, for finding the row (or holding) that opened a lot. */
export function sourceKey(s: LedgerSource): string {
  return `${s.file}\u0000${s.sheet ?? ''}\u0000${s.row}`;
}

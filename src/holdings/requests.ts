import type { ScoreRequest, ValuationRequest } from '../wire';
import type { Holding } from './types';

/**
 * What the service is asked to value, with the quantity (the service values the whole holding):
 * the asset_id when the file gave one, else the descriptors.
 */
export function valuationRequest(h: Holding): ValuationRequest {
  return h.assetIdGiven ? requestForAssetId(h) : descriptorRequest(h);
}

/**
 * A holding named by an id: the id itself with the particulars that move only its value,
 * never descriptors rebuilt from the id's parts, which do not round-trip (a brand code is not a
 * brand; a size part such as -S35 has no descriptor). The service looks the id up, and the
 * client checks that the answer names the same id.
 */
export function requestForAssetId(h: Holding): ValuationRequest {
  return { asset_id: h.assetId, segment: h.segment, condition: h.condition, box_papers: h.boxPapers, quantity: h.quantity, medium: h.medium, size_cm: h.sizeCm };
}

/** A holding by its descriptors (for an id the service did not issue: those its id encodes, unless the row gives its own). */
export function descriptorRequest(h: Holding): ValuationRequest {
  return {
    segment: h.segment,
    brand: h.brand,
    model: h.model,
    reference: h.reference,
    year: h.year,
    condition: h.condition,
    box_papers: h.boxPapers,
    size: h.size,
    quantity: h.quantity,
    medium: h.medium,
    size_cm: h.sizeCm,
  };
}

export function scoreRequest(h: Holding): ScoreRequest {
  return valuationRequest(h);
}

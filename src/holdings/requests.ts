import type { ScoreRequest, ValuationRequest } from '../wire';
import type { Holding } from './types';

/** What the service is asked to value: the descriptors and the quantity (the service values the whole holding). */
export function valuationRequest(h: Holding): ValuationRequest {
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

import { AbortedError, ConnectionError, DailyLimitExhaustedError, RateLimitError, ServerError, TimeoutError, type Outcome, type ServiceError } from '../../src/client';
import type { BatchValuationItem, ScoreObject } from '../../src/wire';
import type { FailedItem, ItemResult, ScoreLite } from './results';

/** Failures worth trying again on --resume: the service, the network or the budget, not the item. */
export function isTransient(e: ServiceError): boolean {
  return e instanceof DailyLimitExhaustedError || e instanceof RateLimitError || e instanceof ServerError || e instanceof ConnectionError || e instanceof TimeoutError;
}

export function failure(e: ServiceError): FailedItem {
  return { ok: false, field: e.field ?? '', message: e.message, transient: isTransient(e) };
}

export function valuationResult(o: Outcome<BatchValuationItem>): ItemResult {
  if (!o.ok) {
    if (o.error instanceof AbortedError) throw o.error;
    return failure(o.error);
  }
  const v = o.value;
  return {
    ok: true,
    asset_id: v.asset_id,
    low: v.estimated_value.low ?? null,
    mid: v.estimated_value.mid,
    high: v.estimated_value.high ?? null,
    currency: v.estimated_value.currency,
    confidence: v.confidence,
    service_score: v.service_score,
    momentum: v.momentum ?? null,
    // The batch gives no per-item flag: the holding's score supplies it (false until then).
    market_validated: false,
  };
}

/** A score, or null when the holding could not be scored (the report keeps the valuation's score). */
export function scoreResult(o: Outcome<ScoreObject>): ScoreLite | null {
  if (!o.ok) return null;
  return { service_score: o.value.service_score, momentum: o.value.momentum, market_validated: o.value.market_validated };
}

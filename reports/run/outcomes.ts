import { AbortedError, ConnectionError, DailyLimitExhaustedError, NotFoundError, RateLimitError, ServerError, TimeoutError, type Outcome, type ServiceError } from '../../src/client';
import type { BatchValuationItem, ScoreObject } from '../../src/wire';
import type { FailedItem, ItemResult, ScoreLite } from './results';

/** Failures worth trying again on --resume: the service, the network or the budget, not the item. */
export function isTransient(e: ServiceError): boolean {
  return e instanceof DailyLimitExhaustedError || e instanceof RateLimitError || e instanceof ServerError || e instanceof ConnectionError || e instanceof TimeoutError;
}

export function failure(e: ServiceError): FailedItem {
  return { ok: false, field: e.field ?? '', message: e.message, transient: isTransient(e) };
}

/**
 * The service did not issue the asset id the holding was asked by (a 404 on asset_id): a row
 * error saying what is allowed (ids the service issued, as it listed some) and the way out.
 */
export function isUnknownId(e: ServiceError): boolean {
  return e instanceof NotFoundError && e.field === 'asset_id';
}

function unknownIdFailure(e: ServiceError, assetId: string | undefined): FailedItem {
  const examples = (e.allowedValues ?? []).slice(0, 2).map(String);
  const such = examples.length > 0 ? `, such as ${examples.join(' or ')}` : '';
  return {
    ok: false,
    field: 'asset_id',
    message:
      `the asset id ${assetId ?? ''} is not one the service issued: give an asset id the service issued${such}; ` +
      'check the id, or run with --allow-unknown-ids to value it from the details its id encodes',
    transient: false,
    unknown_id: true,
  };
}

/** A batch item's outcome as the report keeps it; `assetId` is the id the holding was asked by, for the message of an unknown one. */
export function valuationResult(o: Outcome<BatchValuationItem>, assetId?: string): ItemResult {
  if (!o.ok) {
    if (o.error instanceof AbortedError) throw o.error;
    return isUnknownId(o.error) ? unknownIdFailure(o.error, assetId) : failure(o.error);
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

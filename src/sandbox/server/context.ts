import { SEGMENT_IDS, isRealDate, isSegmentId, type Currency, type SegmentId } from '../../wire';
import type { MarketContext } from '../market/market';
import { validationError } from './http-error';

export const AS_OF_HEADER = 'x-sandbox-as-of';

export function utcDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/**
 * The market day of a request: today (UTC, by the sandbox clock) or the past day named by
 * x-sandbox-as-of. generated_at stays the real time of the answer.
 */
export function marketDay(asOf: string | string[] | undefined, now: Date): string {
  const today = utcDay(now);
  if (asOf === undefined) return today;
  const value = Array.isArray(asOf) ? asOf[0]! : asOf;
  if (!isRealDate(value)) throw validationError(AS_OF_HEADER, `${AS_OF_HEADER} must be a date that exists, as YYYY-MM-DD`);
  if (value > today) throw validationError(AS_OF_HEADER, `${AS_OF_HEADER} ${value} is in the future; the latest day is ${today}`);
  return value;
}

export function marketContext(day: string, now: Date, currency: Currency = 'USD'): MarketContext {
  return { day, now, currency };
}

/** A segment taken from the path or the query: one of the ten ids, else a 400 listing them. */
export function segmentParam(value: string | null | undefined): SegmentId {
  if (isSegmentId(value)) return value;
  throw validationError('segment', `segment must be one of ${SEGMENT_IDS.join(', ')}`, [...SEGMENT_IDS]);
}

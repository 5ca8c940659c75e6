import { z } from 'zod';
import { ValuationRequest } from './assets';
import { MAX_BATCH, Momentum, Money, Ratio, Score100, SegmentOut, SignedPercent, Timestamp, openEnum, CurrencySchema } from './primitives';

export const EstimatedValue = z.object({
  low: Money,
  mid: Money,
  high: Money,
  currency: z.string().min(3),
});
export type EstimatedValue = z.infer<typeof EstimatedValue>;

export const VALUATION_STATUSES = ['valid', 'expired'] as const;

export const Valuation = z.object({
  /** The spec's first-call response lists no id; ours carries one so GET /valuations/{id} is usable. */
  id: z.string().startsWith('val_').optional(),
  asset_id: z.string(),
  segment: SegmentOut,
  brand: z.string(),
  model: z.string(),
  reference: z.string().nullable().optional(),
  estimated_value: EstimatedValue,
  confidence: Ratio,
  data_points: z.number().int().min(0).optional(),
  service_score: Score100,
  momentum: Momentum,
  vs_segment_avg: SignedPercent.optional(),
  market_validated: z.boolean(),
  generated_at: Timestamp,
  valid_until: Timestamp.optional(),
  status: openEnum(VALUATION_STATUSES).optional(),
});
export type Valuation = z.infer<typeof Valuation>;

/** GET /valuations/{id}: the spec's retrieve subset; the other fields of the record may also appear. */
export const RetrievedValuation = Valuation.partial().extend({
  id: z.string().startsWith('val_'),
  asset_id: z.string(),
  estimated_value: EstimatedValue,
  service_score: Score100,
  status: openEnum(VALUATION_STATUSES),
  market_validated: z.boolean(),
  generated_at: Timestamp,
});
export type RetrievedValuation = z.infer<typeof RetrievedValuation>;

export const BatchValuationRequest = z.object({
  assets: z.array(ValuationRequest).min(1).max(MAX_BATCH),
  currency: CurrencySchema.optional(),
});
export type BatchValuationRequest = z.input<typeof BatchValuationRequest>;

export const BatchValuationItem = z.object({
  asset_id: z.string(),
  /** The spec shows mid and currency; ours adds low and high so a report needs no second call. */
  estimated_value: z.object({
    mid: Money,
    currency: z.string().min(3),
    low: Money.optional(),
    high: Money.optional(),
  }),
  service_score: Score100,
  confidence: Ratio,
  momentum: Momentum.optional(),
  data_points: z.number().int().min(0).optional(),
  valid_until: Timestamp.optional(),
});
export type BatchValuationItem = z.infer<typeof BatchValuationItem>;

export const BatchValuationResult = z.object({
  batch_id: z.string().startsWith('batch_'),
  count: z.number().int().min(0),
  valuations: z.array(BatchValuationItem),
  total_value: Money,
  market_validated: z.boolean(),
  generated_at: Timestamp,
});
export type BatchValuationResult = z.infer<typeof BatchValuationResult>;

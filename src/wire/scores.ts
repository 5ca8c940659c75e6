import { z } from 'zod';
import { AssetDescriptorFields, requireMaker } from './assets';
import { MAX_BATCH, Momentum, Ratio, Score100, SignedPercent, Timestamp, openEnum, SegmentIdSchema, plainString } from './primitives';

/** The six factors and their weights, exactly as the spec gives them (they sum to 1). */
export const FACTOR_WEIGHTS = {
  rarity_edition: 0.2,
  market_desirability: 0.2,
  historical_valorisation: 0.15,
  liquidity_profile: 0.15,
  institutional_recognition: 0.15,
  appreciation_potential: 0.15,
} as const;
export type FactorName = keyof typeof FACTOR_WEIGHTS;
export const FACTOR_NAMES = Object.keys(FACTOR_WEIGHTS) as FactorName[];

export const CLASSIFICATIONS = ['exceptional', 'strong', 'moderate', 'speculative'] as const;

/**
 * POST /scores: an asset_id, or a segment with its descriptors (art: artist, title, year,
 * medium, size_cm). Which is required is not in the spec: one of the two (docs/decisions.md).
 */
export const ScoreRequest = z
  .object({ ...AssetDescriptorFields, segment: SegmentIdSchema.optional(), asset_id: plainString().max(120).optional() })
  .superRefine((a, ctx) => {
    if (a.asset_id !== undefined) return;
    if (a.segment === undefined) {
      ctx.addIssue({ code: 'custom', path: ['segment'], message: 'segment is required unless asset_id is given' });
      return;
    }
    requireMaker({ ...a, segment: a.segment }, ctx);
  });
export type ScoreRequest = z.input<typeof ScoreRequest>;

export const ScoreObject = z.object({
  asset_id: z.string(),
  service_score: Score100,
  classification: openEnum(CLASSIFICATIONS),
  momentum: Momentum,
  confidence: Ratio,
  percentile: z.number().int().min(0).max(100),
  vs_segment_avg: SignedPercent,
  market_validated: z.boolean(),
  generated_at: Timestamp,
});
export type ScoreObject = z.infer<typeof ScoreObject>;
export const ScoreResponse = z.object({ score: ScoreObject });
export type ScoreResponse = z.infer<typeof ScoreResponse>;

export const BreakdownRequest = z.object({ asset_id: plainString().min(1).max(120) });
export type BreakdownRequest = z.infer<typeof BreakdownRequest>;

export const Factor = z.object({ score: z.number().min(0).max(100), weight: Ratio, contribution: z.number().min(0).max(100) });
export type Factor = z.infer<typeof Factor>;

export const Breakdown = z.object({
  asset_id: z.string(),
  service_score: Score100,
  factors: z.object({
    rarity_edition: Factor,
    market_desirability: Factor,
    historical_valorisation: Factor,
    liquidity_profile: Factor,
    institutional_recognition: Factor,
    appreciation_potential: Factor,
  }),
  weighted_total: Score100,
  market_validated: z.boolean(),
  generated_at: Timestamp,
});
export type Breakdown = z.infer<typeof Breakdown>;
export const BreakdownResponse = z.object({ breakdown: Breakdown });
export type BreakdownResponse = z.infer<typeof BreakdownResponse>;

/** POST /scores/batch: named only in an overview; shaped like the valuation batch (docs/decisions.md). */
export const BatchScoreRequest = z.object({ assets: z.array(ScoreRequest).min(1).max(MAX_BATCH) });
export type BatchScoreRequest = z.input<typeof BatchScoreRequest>;
export const BatchScoreResult = z.object({
  batch_id: z.string().startsWith('batch_'),
  count: z.number().int().min(0),
  scores: z.array(ScoreObject),
  market_validated: z.boolean(),
  generated_at: Timestamp,
});
export type BatchScoreResult = z.infer<typeof BatchScoreResult>;

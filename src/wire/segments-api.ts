import { z } from 'zod';
import { Momentum, Score100, SegmentOut, SignedPercent, openEnum } from './primitives';

export const SegmentListItem = z.object({ id: SegmentOut, name: z.string(), asset_count: z.number().int().min(0) });
export const SegmentList = z.object({
  segments: z.array(SegmentListItem),
  total_assets: z.number().int().min(0),
  accuracy: z.string(),
});
export type SegmentList = z.infer<typeof SegmentList>;

export const SegmentDetail = z.object({
  id: SegmentOut,
  name: z.string(),
  asset_count: z.number().int().min(0),
  brands: z.array(z.string()),
  data_depth: openEnum(['decades', 'years', 'months'] as const),
  calibration_status: openEnum(['refined', 'calibrating', 'initial'] as const),
  performance: z.object({ ytd: SignedPercent, '1_year': SignedPercent, '3_year': SignedPercent }),
  momentum: Momentum,
  liquidity: openEnum(['high', 'medium', 'low'] as const),
  avg_service_score: Score100,
  top_assets: z.array(z.object({ brand: z.string(), model: z.string(), score: Score100 })),
  active_apis: z.array(z.string()),
  market_validated: z.boolean(),
});
export type SegmentDetail = z.infer<typeof SegmentDetail>;
export const SegmentDetailResponse = z.object({ segment: SegmentDetail });
export type SegmentDetailResponse = z.infer<typeof SegmentDetailResponse>;

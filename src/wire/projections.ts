import { z } from 'zod';
import { CurrencySchema, Money, PositiveMoneyIn, Ratio, Timestamp, plainString } from './primitives';

export const HORIZONS = [12, 24, 36] as const;
export type Horizon = (typeof HORIZONS)[number];
export const SCENARIOS = ['conservative', 'central', 'optimistic'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];
export const horizonKey = (h: Horizon) => `${h}_months` as const;
export type HorizonKey = ReturnType<typeof horizonKey>;

export const ProjectionRequest = z.object({
  asset_id: plainString().min(1).max(120),
  current_value: PositiveMoneyIn,
  /** One literal of three values, so a bad horizon is refused with allowed_values like every other enumeration. */
  horizons: z.array(z.literal(HORIZONS)).min(1).optional(),
  scenarios: z.array(z.enum(SCENARIOS)).min(1).optional(),
  currency: CurrencySchema.optional(),
});
export type ProjectionRequest = z.input<typeof ProjectionRequest>;

export const HorizonPoint = z.object({ value: Money, roi_percent: z.number().finite() });
export type HorizonPoint = z.infer<typeof HorizonPoint>;

/** A horizon member is present when it was asked for (all three by default). */
export const Scenario = z.object({
  probability: Ratio,
  '12_months': HorizonPoint.optional(),
  '24_months': HorizonPoint.optional(),
  '36_months': HorizonPoint.optional(),
});
export type Scenario = z.infer<typeof Scenario>;

export const Projection = z.object({
  id: z.string().startsWith('proj_'),
  asset_id: z.string(),
  current_value: Money,
  currency: z.string().min(3),
  scenarios: z.object({ conservative: Scenario, central: Scenario, optimistic: Scenario }),
  expected_roi: z.object({
    '12_months': z.number().finite().optional(),
    '24_months': z.number().finite().optional(),
    '36_months': z.number().finite().optional(),
  }),
  confidence: Ratio,
  market_validated: z.boolean(),
  generated_at: Timestamp,
});
export type Projection = z.infer<typeof Projection>;
export const ProjectionResponse = z.object({ projection: Projection });
export type ProjectionResponse = z.infer<typeof ProjectionResponse>;

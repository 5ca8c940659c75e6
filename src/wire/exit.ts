import { z } from 'zod';
import { CurrencySchema, Money, PositiveMoneyIn, Ratio, SegmentIdSchema, SegmentOut, Timestamp, openEnum, plainString } from './primitives';

export const URGENCIES = ['flexible', 'standard', 'urgent'] as const;
export const TIMING_SIGNALS = ['favourable', 'neutral', 'unfavourable'] as const;
export const OPTIMAL_WINDOWS = ['now', 'approaching', 'distant'] as const;
export const RECOMMENDATIONS = ['sell_now', 'monitor_closely', 'hold'] as const;

export const ExitRequest = z.object({
  asset_id: plainString().min(1).max(120),
  current_value: PositiveMoneyIn,
  urgency: z.enum(URGENCIES).optional(),
  currency: CurrencySchema.optional(),
});
export type ExitRequest = z.input<typeof ExitRequest>;

/** "30-60": a range of days. */
export const DayRange = z.string().regex(/^\d+(-\d+)?$/, 'a range of days such as 30-60');

export const ExitChannelEstimate = z.object({
  name: z.string(),
  commission_percent: z.number().min(0).max(100),
  estimated_net: Money,
  timeline_days: DayRange,
});
export type ExitChannelEstimate = z.infer<typeof ExitChannelEstimate>;

export const ExitStrategy = z.object({
  asset_id: z.string(),
  current_value: Money,
  currency: z.string().min(3),
  timing: z.object({
    signal: openEnum(TIMING_SIGNALS),
    optimal_window: openEnum(OPTIMAL_WINDOWS),
    recommendation: openEnum(RECOMMENDATIONS),
  }),
  channels: z.object({ primary: ExitChannelEstimate, secondary: ExitChannelEstimate }),
  alternatives: z.object({
    lease_back: z.object({ available: z.boolean(), yield_percent: z.number().min(0), provider: z.string() }),
    hold_12_months: z.object({ projected_roi_percent: z.number().finite(), recommendation: openEnum(['consider', 'recommended', 'not_recommended'] as const) }),
  }),
  confidence: Ratio,
  market_validated: z.boolean(),
  generated_at: Timestamp,
});
export type ExitStrategy = z.infer<typeof ExitStrategy>;
export const ExitStrategyResponse = z.object({ exit_strategy: ExitStrategy });
export type ExitStrategyResponse = z.infer<typeof ExitStrategyResponse>;

/** GET /exit/channels?segment=…: only the channels serving that segment. */
export const ExitChannelsQuery = z.object({ segment: SegmentIdSchema.optional() });

/** How a channel sells: the kinds the sandbox's catalogue of sale channels uses. */
export const EXIT_CHANNEL_KINDS = ['auction', 'dealer', 'private_sale', 'marketplace', 'consignment'] as const;

/** GET /exit/channels: not shaped by the spec; the catalogue of sale channels (docs/decisions.md). */
export const ExitChannel = z.object({
  id: z.string(),
  name: z.string(),
  kind: openEnum(EXIT_CHANNEL_KINDS),
  segments: z.array(SegmentOut),
  commission_percent: z.number().min(0).max(100),
  timeline_days: DayRange,
});
export type ExitChannel = z.infer<typeof ExitChannel>;
export const ExitChannelList = z.object({ channels: z.array(ExitChannel), count: z.number().int().min(0), generated_at: Timestamp });
export type ExitChannelList = z.infer<typeof ExitChannelList>;

import { z } from 'zod';
import { Momentum, Ratio, SegmentOut, SignedPercent, Timestamp, openEnum } from './primitives';

export const VOLUME_LEVELS = ['high', 'above_average', 'average', 'below_average', 'low'] as const;
export const SENTIMENTS = ['bullish', 'neutral', 'bearish'] as const;
export const PRICE_TRENDS = ['upward', 'flat', 'downward'] as const;
export const SENTIMENT_TRENDS = ['improving', 'stable', 'deteriorating'] as const;
export const ALERT_TYPES = ['breakout', 'breakdown', 'volume_spike', 'sentiment_shift'] as const;
export const SEVERITIES = ['opportunity', 'info', 'warning', 'critical'] as const;

export const SegmentSignalSummary = z.object({
  momentum: Momentum,
  volume: openEnum(VOLUME_LEVELS),
  sentiment: openEnum(SENTIMENTS),
  signal_strength: Ratio,
});

export const OverviewAlert = z.object({
  type: openEnum(ALERT_TYPES),
  segment: SegmentOut,
  message: z.string(),
  severity: openEnum(SEVERITIES),
});

export const SignalsOverview = z.object({
  generated_at: Timestamp,
  segments: z.record(z.string(), SegmentSignalSummary),
  alerts: z.array(OverviewAlert),
  market_validated: z.boolean(),
});
export type SignalsOverview = z.infer<typeof SignalsOverview>;
export const SignalsOverviewResponse = z.object({ signals: SignalsOverview });
export type SignalsOverviewResponse = z.infer<typeof SignalsOverviewResponse>;

export const TopMover = z.object({ brand: z.string(), model: z.string(), change_30d: SignedPercent });
export type TopMover = z.infer<typeof TopMover>;

export const SegmentSignals = z.object({
  segment: SegmentOut,
  signals: z.object({
    price: z.object({ trend: openEnum(PRICE_TRENDS), change_7d: SignedPercent, change_30d: SignedPercent, change_90d: SignedPercent }),
    volume: z.object({ level: openEnum(VOLUME_LEVELS), change_vs_avg: SignedPercent, transaction_count_30d: z.number().int().min(0) }),
    momentum: z.object({ direction: Momentum, strength: Ratio, duration_days: z.number().int().min(0) }),
    sentiment: z.object({ overall: openEnum(SENTIMENTS), score: Ratio, trend: openEnum(SENTIMENT_TRENDS) }),
    top_movers: z.array(TopMover),
  }),
  market_validated: z.boolean(),
  generated_at: Timestamp,
});
export type SegmentSignals = z.infer<typeof SegmentSignals>;

export const Alert = z.object({
  id: z.string().startsWith('alert_'),
  type: openEnum(ALERT_TYPES),
  severity: openEnum(SEVERITIES),
  segment: SegmentOut,
  title: z.string(),
  message: z.string(),
  created_at: Timestamp,
  expires_at: Timestamp,
});
export type Alert = z.infer<typeof Alert>;

export const AlertList = z.object({ alerts: z.array(Alert), count: z.number().int().min(0), generated_at: Timestamp });
export type AlertList = z.infer<typeof AlertList>;

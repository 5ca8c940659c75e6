import { z } from 'zod';
import { PortfolioAssetInput } from './assets';
import { Momentum, Money, PlainText, Ratio, Score100, SignedPercent, Timestamp, openEnum, CurrencySchema } from './primitives';

export const MAX_PORTFOLIO_ASSETS = 1000;

export const PortfolioRequest = z.object({
  name: PlainText(200),
  assets: z.array(PortfolioAssetInput).min(1).max(MAX_PORTFOLIO_ASSETS),
  currency: CurrencySchema.optional(),
});
export type PortfolioRequest = z.input<typeof PortfolioRequest>;

/** PUT /portfolio/{id}: replaces the name, the holdings or both (docs/decisions.md). */
export const PortfolioUpdateRequest = z
  .object({
    name: PlainText(200).optional(),
    assets: z.array(PortfolioAssetInput).min(1).max(MAX_PORTFOLIO_ASSETS).optional(),
  })
  .refine((b) => b.name !== undefined || b.assets !== undefined, { message: 'give name, assets or both', path: ['assets'] });
export type PortfolioUpdateRequest = z.input<typeof PortfolioUpdateRequest>;

export const PortfolioCreated = z.object({
  id: z.string().startsWith('port_'),
  name: z.string(),
  asset_count: z.number().int().min(0),
  segment_count: z.number().int().min(0),
  total_invested: Money,
  current_value: Money,
  total_return_percent: z.number().finite(),
  created_at: Timestamp,
});
export type PortfolioCreated = z.infer<typeof PortfolioCreated>;
export const PortfolioCreatedResponse = z.object({ portfolio: PortfolioCreated });
export type PortfolioCreatedResponse = z.infer<typeof PortfolioCreatedResponse>;

export const RISK_PROFILES = ['conservative', 'moderate', 'aggressive'] as const;

export const PortfolioAnalytics = z.object({
  id: z.string().startsWith('port_'),
  name: z.string(),
  summary: z.object({
    asset_count: z.number().int().min(0),
    segment_count: z.number().int().min(0),
    total_invested: Money,
    current_value: Money,
    total_return_percent: z.number().finite(),
    annualised_return: z.number().finite(),
    currency: z.string().min(3),
  }),
  allocation: z.record(z.string(), z.object({ value: Money, percentage: z.number().min(0).max(100) })),
  assets: z.array(
    z.object({
      asset_id: z.string(),
      current_value: Money,
      purchase_price: Money,
      return_percent: z.number().finite(),
      service_score: Score100,
      momentum: Momentum,
    }),
  ),
  metrics: z.object({
    diversification_score: z.number().min(0).max(100),
    risk_profile: openEnum(RISK_PROFILES),
    momentum: Momentum,
    confidence: Ratio,
  }),
  market_validated: z.boolean(),
  updated_at: Timestamp,
});
export type PortfolioAnalytics = z.infer<typeof PortfolioAnalytics>;
export const PortfolioAnalyticsResponse = z.object({ portfolio: PortfolioAnalytics });
export type PortfolioAnalyticsResponse = z.infer<typeof PortfolioAnalyticsResponse>;

const Period = z.object({ return_percent: z.number().finite(), vs_benchmark: SignedPercent });
const Benchmark = z.object({ '1_year': z.number().finite() });
const Performer = z.object({ asset_id: z.string(), return_percent: z.number().finite() });

export const PERIODS = ['1_month', '3_months', '6_months', '1_year', 'ytd'] as const;
export const BENCHMARKS = ['equity_index', 'gold', 'luxury_index'] as const;

export const Performance = z.object({
  portfolio_id: z.string(),
  periods: z.object({ '1_month': Period, '3_months': Period, '6_months': Period, '1_year': Period, ytd: Period }),
  benchmarks: z.object({ equity_index: Benchmark, gold: Benchmark, luxury_index: Benchmark }),
  best_performer: Performer,
  worst_performer: Performer,
  generated_at: Timestamp,
});
export type Performance = z.infer<typeof Performance>;
export const PerformanceResponse = z.object({ performance: Performance });
export type PerformanceResponse = z.infer<typeof PerformanceResponse>;

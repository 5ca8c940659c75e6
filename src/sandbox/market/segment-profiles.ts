import type { SegmentId } from '../../wire';

/**
 * How each segment behaves: the trend and noise of its price index, how liquid and how
 * recognised its assets are, and how condition and a full set move prices. One table so
 * every module reads the same numbers.
 */
export interface SegmentProfile {
  /** Long-run trend growth per year (log). */
  drift: number;
  /** Stationary spread of the index around its trend (log std). */
  spread: number;
  /** Mean-reversion time of the deviation, in days. */
  reversionDays: number;
  /** Base of the liquidity factor (0-100). */
  liquidity: number;
  /** Base of the institutional recognition factor (0-100). */
  recognition: number;
  /** Price multipliers by condition; an unstated condition counts as very_good. */
  condition: { excellent: number; very_good: number; good: number; fair: number };
  /** Discount when box and papers (or the segment's equivalent) are missing. */
  incompleteDiscount: number;
  /** Completed sales per month across the segment, before volume swings. */
  monthlyTransactions: number;
  liquidityLabel: 'high' | 'medium' | 'low';
}

const goods = { excellent: 1.05, very_good: 1, good: 0.9, fair: 0.78 };

export const SEGMENT_PROFILES: Record<SegmentId, SegmentProfile> = {
  watches: { drift: 0.04, spread: 0.08, reversionDays: 150, liquidity: 78, recognition: 74, condition: goods, incompleteDiscount: 0.15, monthlyTransactions: 5400, liquidityLabel: 'high' },
  art: { drift: 0.05, spread: 0.07, reversionDays: 250, liquidity: 42, recognition: 88, condition: { excellent: 1.04, very_good: 1, good: 0.88, fair: 0.7 }, incompleteDiscount: 0.15, monthlyTransactions: 900, liquidityLabel: 'low' },
  wine: { drift: 0.03, spread: 0.06, reversionDays: 200, liquidity: 72, recognition: 80, condition: { excellent: 1.03, very_good: 1, good: 0.9, fair: 0.75 }, incompleteDiscount: 0.07, monthlyTransactions: 7800, liquidityLabel: 'high' },
  sneakers: { drift: 0.02, spread: 0.1, reversionDays: 90, liquidity: 82, recognition: 38, condition: { excellent: 1.08, very_good: 1, good: 0.72, fair: 0.5 }, incompleteDiscount: 0.12, monthlyTransactions: 21000, liquidityLabel: 'high' },
  bags: { drift: 0.06, spread: 0.07, reversionDays: 180, liquidity: 68, recognition: 60, condition: { excellent: 1.06, very_good: 1, good: 0.85, fair: 0.68 }, incompleteDiscount: 0.1, monthlyTransactions: 4200, liquidityLabel: 'medium' },
  cards: { drift: 0.06, spread: 0.12, reversionDays: 100, liquidity: 70, recognition: 50, condition: { excellent: 1.15, very_good: 1, good: 0.7, fair: 0.48 }, incompleteDiscount: 0.05, monthlyTransactions: 16000, liquidityLabel: 'high' },
  jewellery: { drift: 0.04, spread: 0.05, reversionDays: 250, liquidity: 52, recognition: 66, condition: { excellent: 1.04, very_good: 1, good: 0.9, fair: 0.8 }, incompleteDiscount: 0.08, monthlyTransactions: 2600, liquidityLabel: 'medium' },
  automobiles: { drift: 0.05, spread: 0.07, reversionDays: 250, liquidity: 40, recognition: 72, condition: { excellent: 1.15, very_good: 1, good: 0.84, fair: 0.65 }, incompleteDiscount: 0.1, monthlyTransactions: 1300, liquidityLabel: 'low' },
  spirits: { drift: 0.07, spread: 0.07, reversionDays: 200, liquidity: 60, recognition: 56, condition: { excellent: 1.03, very_good: 1, good: 0.9, fair: 0.76 }, incompleteDiscount: 0.08, monthlyTransactions: 6100, liquidityLabel: 'medium' },
  real_estate: { drift: 0.04, spread: 0.04, reversionDays: 365, liquidity: 28, recognition: 70, condition: { excellent: 1.05, very_good: 1, good: 0.93, fair: 0.85 }, incompleteDiscount: 0, monthlyTransactions: 380, liquidityLabel: 'low' },
};

/** Benchmarks a portfolio is compared with, as seeded series of the same kind. */
export const BENCHMARK_PROFILES = {
  equity_index: { drift: 0.08, spread: 0.12, reversionDays: 250 },
  gold: { drift: 0.06, spread: 0.1, reversionDays: 300 },
  luxury_index: { drift: 0.07, spread: 0.1, reversionDays: 200 },
} as const;

/** Currency units per US dollar around which the seeded FX series move. */
export const FX_LEVELS = {
  EUR: { level: 0.86, spread: 0.05, reversionDays: 365 },
  GBP: { level: 0.75, spread: 0.05, reversionDays: 365 },
} as const;

/** Annualised volatility of a segment index implied by its OU parameters. */
export function annualVolatility(p: { spread: number; reversionDays: number }): number {
  return p.spread * Math.sqrt((2 / p.reversionDays) * 365);
}

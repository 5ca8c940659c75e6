/** The portfolio's period returns and the benchmarks' one-year returns. Units and `null` as in report-data.ts (money in cover.currency, `*_percent` in percent units). */

/** Ids of the periods a PeriodReturn covers. */
export const PERIOD_IDS = ['1_month', '3_months', '6_months', '1_year', 'ytd'] as const;
export type PeriodId = (typeof PERIOD_IDS)[number];
/** Ids of the benchmarks a BenchmarkReturn names. */
export const BENCHMARK_IDS = ['luxury_index', 'gold', 'equity_index'] as const;
export type BenchmarkId = (typeof BENCHMARK_IDS)[number];

export interface PeriodReturn {
  period: PeriodId;
  /** Display label, e.g. "1 month", "Year to date". */
  label: string;
  /** Portfolio return over the period, percent. */
  return_percent: number;
  /** Portfolio minus benchmark over the period, percentage points; null when the service gave none. */
  vs_benchmark_percent: number | null;
}

export interface BenchmarkReturn {
  id: BenchmarkId;
  /** Display name: "Luxury index", "Gold", "Equities". */
  name: string;
  /** Benchmark return over one year, percent; null when unavailable. */
  one_year_return_percent: number | null;
}

export interface PerformanceComparison {
  /** Portfolio returns per period (service performance endpoint). */
  periods: PeriodReturn[];
  /** Benchmark one-year returns: luxury index, gold, equities, in that order. */
  benchmarks: BenchmarkReturn[];
  /** Portfolio one-year return, percent, shown next to the benchmarks (periods['1_year']). */
  portfolio_one_year_return_percent: number | null;
  /** The benchmark vs_benchmark_percent is measured against, by name (e.g. "Luxury index"). */
  benchmark_name: string;
}

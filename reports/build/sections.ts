import type { MessageKey, Translator } from '../../src/i18n';
import { parseSignedPercent, type ExitStrategy, type Performance, type Projection } from '../../src/wire';
import {
  BENCHMARK_IDS,
  PERIOD_IDS,
  type BenchmarkId,
  type ExitRow,
  type PerformanceComparison,
  type PeriodId,
  type ProjectionRow,
  type Section,
} from '../report-data';

/** Each period's name in the client's language: the glossary's terms where it has them (common), months counted by the language's plural rules. */
function periodLabel(tr: Translator, period: PeriodId): string {
  if (period === 'ytd') return tr.t('common.period_ytd');
  if (period === '1_year') return tr.t('common.period_1y');
  return tr.t('notes.period_months', { count: Number.parseInt(period, 10) });
}
const BENCHMARK_NAMES = { luxury_index: 'notes.benchmark_luxury_index', gold: 'notes.benchmark_gold', equity_index: 'notes.benchmark_equity_index' } as const satisfies Record<BenchmarkId, MessageKey>;

/**
 * The holding a projection or exit row is about, with its one valuation: every section shows the
 * holding's own value, confidence and validation, whatever the projection or exit call echoed.
 */
export interface RowRef {
  row: number;
  asset_id: string;
  description: string;
  portfolio: string;
  /** The lines of the position the row stands for (identical holdings are one position). */
  holding_count: number;
  /** In the reporting currency; the position's, all its lines together. */
  current_value: number;
  confidence: number;
  market_validated: boolean;
  /** Units of the reporting currency per unit of the currency the service answered in (as of the report date). */
  rate(serviceCurrency: string): number;
}

/** The name of the benchmark the service measures vs_benchmark against (docs/decisions.md, "Performance"). */
export const VS_BENCHMARK: BenchmarkId = 'luxury_index';

/** The service's performance with its periods and benchmarks named in the client's language (`tr`); ids stay the codes. */
export function performanceComparison(p: Performance, tr: Translator): PerformanceComparison {
  return {
    periods: PERIOD_IDS.map((period) => ({
      period,
      label: periodLabel(tr, period),
      return_percent: p.periods[period].return_percent,
      vs_benchmark_percent: parseSignedPercent(p.periods[period].vs_benchmark) ?? null,
    })),
    benchmarks: BENCHMARK_IDS.map((id) => ({ id, name: tr.t(BENCHMARK_NAMES[id]), one_year_return_percent: p.benchmarks[id]?.['1_year'] ?? null })),
    portfolio_one_year_return_percent: p.periods['1_year'].return_percent,
    benchmark_name: tr.t(BENCHMARK_NAMES[VS_BENCHMARK]),
  };
}

export function projectionRow(ref: RowRef, p: Projection): ProjectionRow {
  // The longest horizon returned stands in for 36 months when 36 was not returned.
  const key = (['36_months', '24_months', '12_months'] as const).find((k) => p.scenarios.central[k] !== undefined);
  const k = ref.rate(p.currency);
  const at = (s: 'conservative' | 'central' | 'optimistic') => {
    const v = key ? p.scenarios[s][key]?.value : undefined;
    return v === undefined || v === null ? null : v * k;
  };
  return {
    ...rowBase(ref),
    expected_roi_12m_percent: p.expected_roi['12_months'] ?? null,
    expected_roi_24m_percent: p.expected_roi['24_months'] ?? null,
    expected_roi_36m_percent: p.expected_roi['36_months'] ?? null,
    central_value_36m: at('central'),
    conservative_value_36m: at('conservative'),
    optimistic_value_36m: at('optimistic'),
  };
}

function rowBase(ref: RowRef) {
  return {
    row: ref.row,
    asset_id: ref.asset_id,
    description: ref.description,
    portfolio: ref.portfolio,
    holding_count: ref.holding_count,
    current_value: ref.current_value,
    confidence: ref.confidence,
    market_validated: ref.market_validated,
  };
}

export function exitRow(ref: RowRef, e: ExitStrategy): ExitRow {
  const k = ref.rate(e.currency);
  return {
    ...rowBase(ref),
    signal: e.timing.signal,
    optimal_window: e.timing.optimal_window,
    recommendation: e.timing.recommendation,
    primary_channel: e.channels.primary.name,
    primary_commission_percent: e.channels.primary.commission_percent,
    primary_estimated_net: e.channels.primary.estimated_net * k,
    primary_timeline_days: e.channels.primary.timeline_days,
    secondary_channel: e.channels.secondary.name,
    secondary_estimated_net: e.channels.secondary.estimated_net * k,
    hold_12m_roi_percent: e.alternatives.hold_12_months.projected_roi_percent,
  };
}

/** Maps an included section's data, keeping its note; an omitted section stays omitted. */
export function mapSection<A, B>(s: Section<A>, f: (a: A) => B): Section<B> {
  return s.included ? { included: true, data: f(s.data), note: s.note } : s;
}

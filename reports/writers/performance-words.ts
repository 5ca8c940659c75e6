/**
 * The words of the market measure against benchmarks (pdf-performance.ts, html-performance.ts):
 * the periods' and benchmarks' names, a lead in percentage points, and the benchmark the service
 * measures the lead against as a sentence names it.
 */
import type { MessageKey, Translator } from '../../src/i18n';
import type { BenchmarkId, PerformanceComparison, PeriodId } from '../report-data';

/** "+1.2 pts": a lead over the benchmark in percentage points, signed as a percent is. */
export function points(value: number, tr: Translator): string {
  // The signed percent without its percent sign (and the spaces or marks Intl sets around it in the language).
  const figure = tr.percent(value, { signed: true }).replace(/[\s\u00a0\u202f\u200e\u200f\u061c]*[%٪][\s\u00a0\u202f\u200e\u200f\u061c]*/u, '');
  return tr.t('pdf.points', { value: figure });
}

/** The market measure's periods' names. */
export const MARKET_PERIOD_KEYS = {
  '1_month': 'pdf.market_period_1_month',
  '3_months': 'pdf.market_period_3_months',
  '6_months': 'pdf.market_period_6_months',
  '1_year': 'common.period_1y',
  ytd: 'common.period_ytd',
} as const satisfies Record<PeriodId, MessageKey>;
/** The benchmarks' names. */
export const BENCHMARK_KEYS = { luxury_index: 'pdf.bench_luxury_index', gold: 'pdf.bench_gold', equity_index: 'pdf.bench_equity_index' } as const satisfies Record<BenchmarkId, MessageKey>;
/** A benchmark's name inside a sentence ("against the luxury index"; German keeps its capital). */
const BENCHMARK_IN_SENTENCE = {
  luxury_index: 'pdf.bench_in_sentence_luxury_index',
  gold: 'pdf.bench_in_sentence_gold',
  equity_index: 'pdf.bench_in_sentence_equity_index',
} as const satisfies Record<BenchmarkId, MessageKey>;

/** The benchmark the service measures the lead against, by its id where the report names one of ours. */
export function benchmarkInSentence(perf: Pick<PerformanceComparison, 'benchmarks' | 'benchmark_name'>, tr: Translator): string {
  const vsId = perf.benchmarks.find((b) => b.name === perf.benchmark_name)?.id;
  return vsId && BENCHMARK_IN_SENTENCE[vsId] ? tr.t(BENCHMARK_IN_SENTENCE[vsId]) : perf.benchmark_name.toLowerCase();
}

import { isAnnualisedSpan, spanOfDates } from '../../src/returns';
import type { Translator } from '../../src/i18n';
import { segmentName } from '../client-words';
import type { AllocationRow, Concentration, ConcentrationFlag, Holding, ReportSummary } from '../report-data';

/** Where concentration becomes worth a flag (percent of the portfolio value). */
export const CONCENTRATION_LIMITS = { singlePosition: 20, top10: 60, segment: 50 } as const;

const YEAR_MS = 365.25 * 86_400_000;

export const sum = (xs: Iterable<number>) => {
  let total = 0;
  for (const x of xs) total += x;
  return total;
};

export const percentOf = (part: number, whole: number) => (whole === 0 ? 0 : (part / whole) * 100);

/**
 * Annualised return since purchase of what is held: over the time the money has been invested,
 * each purchase weighing by its cost (the cost-weighted holding period). Null for nothing
 * invested, a total loss, or a portfolio whose first purchase is under a year before as_of: a
 * return is not annualised under a year (the return since purchase is the period's return).
 */
export function annualisedReturn(holdings: readonly Holding[], asOf: string): number | null {
  const invested = sum(holdings.map((h) => h.purchase_price));
  const value = sum(holdings.map((h) => h.current_value));
  if (invested <= 0 || value <= 0) return null;
  if (!isAnnualisedSpan(spanOfDates([asOf, ...holdings.map((h) => h.purchase_date)]))) return null;
  const end = Date.parse(`${asOf}T00:00:00Z`);
  const years = sum(holdings.map((h) => h.purchase_price * Math.max(0, end - Date.parse(`${h.purchase_date}T00:00:00Z`)))) / invested / YEAR_MS;
  if (years < 1 / 12) return null;
  return (Math.pow(value / invested, 1 / years) - 1) * 100;
}

/** The figures that follow from this run's rows alone (returns over time and coverage are added by the headline). */
export function summarise(
  holdings: readonly Holding[],
  asOf: string,
): Omit<ReportSummary, 'month_on_month' | 'money_weighted_return_percent' | 'time_weighted_return_percent' | 'twr_from' | 'returns_since' | 'returns_unavailable' | 'returns_source' | 'fx_effect' | 'asset_effect' | 'coverage' | 'market_validated_percent' | 'validation_warning'> {
  const invested = sum(holdings.map((h) => h.purchase_price));
  const value = sum(holdings.map((h) => h.current_value));
  return {
    asset_count: holdings.length,
    segment_count: new Set(holdings.map((h) => h.segment)).size,
    total_invested: invested,
    current_value: value,
    current_value_low: sum(holdings.map((h) => h.value_low)),
    current_value_high: sum(holdings.map((h) => h.value_high)),
    gain: value - invested,
    total_return_percent: percentOf(value - invested, invested),
    annualised_return_percent: annualisedReturn(holdings, asOf),
    market_validated_count: holdings.filter((h) => h.market_validated).length,
  };
}

/** One row per segment held, largest value first (ties by segment id so the order is stable). */
export function allocate(holdings: readonly Holding[], tr: Translator): AllocationRow[] {
  const total = sum(holdings.map((h) => h.current_value));
  const bySegment = new Map<string, { count: number; value: number }>();
  for (const h of holdings) {
    const s = bySegment.get(h.segment) ?? { count: 0, value: 0 };
    s.count += 1;
    s.value += h.current_value;
    bySegment.set(h.segment, s);
  }
  return [...bySegment.entries()]
    .map(([segment, s]) => ({
      segment,
      segment_name: segmentName(tr, segment),
      asset_count: s.count,
      value: s.value,
      percentage: percentOf(s.value, total),
    }))
    .sort((a, b) => b.value - a.value || a.segment.localeCompare(b.segment));
}

/** Holdings by value, largest first; input order breaks ties. */
export function largestFirst<T extends { current_value: number; row: number }>(holdings: readonly T[]): T[] {
  return holdings
    .map((h, i) => ({ h, i }))
    .sort((a, b) => b.h.current_value - a.h.current_value || a.i - b.i)
    .map((x) => x.h);
}

/** The concentration figures and flags, the flags' sentences in the report's language (`tr`). */
export function concentration(holdings: readonly Holding[], allocation: readonly AllocationRow[], tr: Translator): Concentration {
  const total = sum(holdings.map((h) => h.current_value));
  const ranked = largestFirst(holdings);
  const top = ranked[0];
  const top10 = percentOf(sum(ranked.slice(0, 10).map((h) => h.current_value)), total);
  const flags: ConcentrationFlag[] = [];
  const L = CONCENTRATION_LIMITS;
  const limit = (percent: number) => tr.percent(percent, { digits: Number.isInteger(percent) ? 0 : 1 });
  if (top && percentOf(top.current_value, total) > L.singlePosition && holdings.length > 1) {
    flags.push({ kind: 'single_position', message: tr.t('notes.concentration_single', { description: top.description, percent: tr.percent(percentOf(top.current_value, total)), limit: limit(L.singlePosition) }) });
  }
  if (holdings.length > 10 && top10 > L.top10) {
    flags.push({ kind: 'top10', message: tr.t('notes.concentration_top10', { percent: tr.percent(top10), limit: limit(L.top10) }) });
  }
  for (const a of allocation) {
    if (a.percentage > L.segment && allocation.length > 1) {
      flags.push({ kind: 'segment', message: tr.t('notes.concentration_segment', { segment: a.segment_name, percent: tr.percent(a.percentage), limit: limit(L.segment) }) });
    }
  }
  return {
    largest_position: top
      ? { row: top.row, asset_id: top.asset_id, description: top.description, value: top.current_value, weight_percent: percentOf(top.current_value, total) }
      : null,
    top10_share_percent: top10,
    flags,
  };
}

/** Fills each holding's weight once the total is known. */
export function weigh(rows: Holding[], total: number): void {
  for (const r of rows) r.weight_percent = percentOf(r.current_value, total);
}

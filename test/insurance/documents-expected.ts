/**
 * The insurance review as the documents must show it, computed here from the report's own
 * valuations (each holding's current value and high estimate) and the cover given, with the
 * issue's rules written out again: the writers' tests never take a figure from src/insurance.
 */
import type { ReportData } from '../../reports/report-data';

export type Status = 'under-insured' | 'over-insured' | 'covered' | 'not-insured';
export const STATUSES: readonly Status[] = ['under-insured', 'over-insured', 'covered', 'not-insured'];

export interface ExpectedItem {
  asset_id: string;
  insured: number | null;
  mid: number;
  high: number;
  replacement: number;
  gap: number | null;
  status: Status;
}

export interface ExpectedReview {
  items: ExpectedItem[];
  byStatus: Record<Status, { count: number; insured: number; replacement: number }>;
  insured: number;
  replacement: number;
  shortfall: number;
}

const cents = (v: number) => Math.round(v * 100) / 100;

export function expectedReview(
  data: ReportData,
  insuredOf: (assetId: string) => number | null,
  rules: { basis?: 'mid' | 'high'; tolerance?: number; factor?: number } = {},
): ExpectedReview {
  const { basis = 'high', tolerance = 0.1, factor = 1.25 } = rules;
  const items = [...data.holdings].map((h): ExpectedItem => {
    const insured = insuredOf(h.asset_id);
    const replacement = basis === 'mid' ? h.current_value : h.value_high;
    let status: Status = 'covered';
    if (insured === null) status = 'not-insured';
    else if (insured < cents(replacement * (1 - tolerance))) status = 'under-insured';
    else if (insured > cents(factor * h.value_high)) status = 'over-insured';
    return { asset_id: h.asset_id, insured, mid: h.current_value, high: h.value_high, replacement, gap: insured === null ? null : cents(replacement - insured), status };
  });
  const byStatus = Object.fromEntries(STATUSES.map((s) => [s, { count: 0, insured: 0, replacement: 0 }])) as ExpectedReview['byStatus'];
  for (const i of items) {
    byStatus[i.status].count++;
    byStatus[i.status].insured += i.insured ?? 0;
    byStatus[i.status].replacement += i.replacement;
  }
  const sum = (f: (i: ExpectedItem) => number) => cents(items.reduce((s, i) => s + f(i), 0));
  return {
    items,
    byStatus,
    insured: sum((i) => i.insured ?? 0),
    replacement: sum((i) => i.replacement),
    shortfall: sum((i) => (i.status === 'under-insured' ? i.gap! : 0)),
  };
}

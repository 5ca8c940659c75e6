/**
 * The insurance review as the documents must show it, computed here from the report's own
 * valuations (each holding's current value and high estimate) and the cover given, with the
 * issue's rules written out again: the writers' tests never take a figure from src/insurance.
 */
import type { Holding } from '../../reports/report-data';

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

/** The fields of a report's holding the review reads (the JSON's holdings have them too). */
export type ValuedHolding = Pick<Holding, 'row' | 'asset_id' | 'current_value' | 'value_high'>;

export function expectedReview(
  holdings: Iterable<ValuedHolding>,
  insuredOf: (h: ValuedHolding) => number | null,
  rules: { basis?: 'mid' | 'high'; tolerance?: number; factor?: number } = {},
): ExpectedReview {
  const { basis = 'high', tolerance = 0.1, factor = 1.25 } = rules;
  const items = [...holdings].map((h): ExpectedItem => {
    const insured = insuredOf(h);
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

/** The English status words the documents print. */
export const STATUS_WORD: Record<Status, string> = { 'under-insured': 'Under-insured', 'over-insured': 'Over-insured', covered: 'Covered', 'not-insured': 'Not insured' };

/** White space of any kind (Intl's no-break ones too) as one space, and the typographic minus as a hyphen. */
export const plain = (t: string) => t.replace(/[\s\u00a0\u202f]+/g, ' ').replace(/\u2212/g, '-');

/** Whole units of a currency as Intl writes them in a language ("$1,234", "-$61,340", "1.234 $"). */
export const wholeMoney = (v: number, lang = 'en-US', currency = 'USD') =>
  plain(new Intl.NumberFormat(lang, { style: 'currency', currency, maximumFractionDigits: 0, minimumFractionDigits: 0 }).format(v));

/** The lines of the PDF's totals table (pdftotext -layout, spaces folded): one per status, then the total. */
export function totalsLines(e: ExpectedReview, money: (v: number) => string = (v) => wholeMoney(v)): string[] {
  return [
    ...STATUSES.map((s) => `${STATUS_WORD[s]} ${e.byStatus[s].count} ${money(e.byStatus[s].insured)} ${money(e.byStatus[s].replacement)}`),
    `Total ${e.items.length} ${money(e.insured)} ${money(e.replacement)}`,
  ];
}

/** The row of an item in the PDF's table (pdftotext -layout): its figures and status in order, anything between. */
export function itemRow(item: ExpectedItem, money: (v: number) => string = (v) => wholeMoney(v)): RegExp {
  const figures = [item.insured === null ? '–' : money(item.insured), money(item.mid), money(item.high), money(item.replacement), item.gap === null ? '–' : money(item.gap), STATUS_WORD[item.status]];
  return new RegExp(figures.map((f) => f.replace(/[$.*+?()[\]{}|\\^]/g, '\\$&')).join(' +'));
}

/**
 * The insurance review (issue 37): each item's cover against its replacement value, pure. The
 * report builds ReviewInput from its own valuations (mid/high in its currency, its FX), so every
 * writer and the broker's schedule show the same figures.
 */
import {
  INSURANCE_STATUSES,
  type InsuranceItem,
  type InsuranceOptions,
  type InsuranceReview,
  type InsuranceStatus,
  type InsuranceTotals,
  type ReviewInput,
  type CoverInput,
} from './types';
import { daysBetween } from '../performance/dates';

/** Money to the cent, so a threshold, a gap or a total carries no binary-fraction noise (0.1 + 0.2). */
export const cents = (amount: number): number => Math.round(amount * 100) / 100;


/**
 * The status of one item: not-insured without an insured value; under-insured below
 * replacement × (1 − tolerance); over-insured above overInsuredFactor × high (the high estimate,
 * whatever the basis: cover beyond what the item could fetch would not pay out); covered otherwise.
 * Thresholds are taken to the cent, so an insured value exactly on one is covered.
 */
export function insuranceStatus(
  insured: number | null,
  replacement: number,
  high: number,
  options: Pick<InsuranceOptions, 'tolerance' | 'overInsuredFactor'>,
): InsuranceStatus {
  if (insured === null) return 'not-insured';
  if (insured < cents(replacement * (1 - options.tolerance))) return 'under-insured';
  if (insured > cents(options.overInsuredFactor * high)) return 'over-insured';
  return 'covered';
}

/** One item's review line. */
export function reviewItem(input: ReviewInput, options: InsuranceOptions): InsuranceItem {
  const replacement = options.basis === 'mid' ? input.mid : input.high;
  const insured = input.insured_value;
  const item: InsuranceItem = {
    ...(input.row !== undefined ? { row: input.row } : {}),
    asset_id: input.asset_id,
    description: input.description,
    insured_value: insured,
    mid: input.mid,
    high: input.high,
    replacement_value: replacement,
    gap: insured === null ? null : cents(replacement - insured),
    status: insuranceStatus(insured, replacement, input.high, options),
    insurer: input.insurer ?? null,
    policy: input.policy ?? null,
    renewal_date: input.renewal_date ?? null,
    renews_in_days: input.renewal_date ? daysBetween(options.asOf, input.renewal_date) : null,
    serial: input.serial ?? null,
  };
  if (input.insured_value_original) item.insured_value_original = { ...input.insured_value_original };
  return item;
}

/** The shortfall an item counts towards total_shortfall: its positive gap when under-insured. */
export const shortfall = (item: InsuranceItem): number => (item.status === 'under-insured' && item.gap !== null && item.gap > 0 ? item.gap : 0);

// After the shortfalls: items with no cover at all (the whole value is exposed), then the rest.
const STATUS_ORDER: Record<InsuranceStatus, number> = { 'under-insured': 0, 'not-insured': 1, covered: 2, 'over-insured': 3 };

/**
 * Largest shortfall first; then not insured (largest replacement value first), covered and
 * over-insured (largest gap first); ties by asset id, so the order never depends on the input's.
 */
export function compareByShortfall(a: InsuranceItem, b: InsuranceItem): number {
  return (
    shortfall(b) - shortfall(a) ||
    STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
    (b.gap ?? b.replacement_value) - (a.gap ?? a.replacement_value) ||
    (a.asset_id < b.asset_id ? -1 : a.asset_id > b.asset_id ? 1 : 0)
  );
}

export function insuranceTotals(items: readonly InsuranceItem[]): InsuranceTotals {
  const byStatus = Object.fromEntries(
    INSURANCE_STATUSES.map((s) => [s, { count: 0, insured_value: 0, replacement_value: 0 }]),
  ) as InsuranceTotals['by_status'];
  let totalShortfall = 0;
  let insured = 0;
  let replacement = 0;
  for (const item of items) {
    const t = byStatus[item.status];
    t.count += 1;
    t.insured_value = cents(t.insured_value + (item.insured_value ?? 0));
    t.replacement_value = cents(t.replacement_value + item.replacement_value);
    totalShortfall = cents(totalShortfall + shortfall(item));
    insured = cents(insured + (item.insured_value ?? 0));
    replacement = cents(replacement + item.replacement_value);
  }
  return { by_status: byStatus, total_shortfall: totalShortfall, insured_value: insured, replacement_value: replacement };
}

/** Renewals from asOf to renewalWindowDays after it (both inclusive), soonest first. */
export function upcomingRenewals(items: readonly InsuranceItem[], windowDays: number): InsuranceItem[] {
  return items
    .filter((i) => i.renews_in_days !== null && i.renews_in_days >= 0 && i.renews_in_days <= windowDays)
    .sort((a, b) => a.renews_in_days! - b.renews_in_days! || compareByShortfall(a, b));
}

/**
 * The review of a portfolio's items. Call it only when the portfolio's files carry cover
 * (hasCover): a portfolio without any has no review at all, never a list of "not insured".
 */
export function insuranceReview(inputs: readonly ReviewInput[], options: InsuranceOptions): InsuranceReview {
  const items = inputs.map((i) => reviewItem(i, options)).sort(compareByShortfall);
  return {
    basis: options.basis,
    tolerance: options.tolerance,
    over_insured_factor: options.overInsuredFactor,
    renewal_window_days: options.renewalWindowDays,
    items,
    totals: insuranceTotals(items),
    renewals: upcomingRenewals(items, options.renewalWindowDays),
  };
}

/** Whether a holding's files said anything about its cover (any cover field present). */
export const hasCover = (cover: CoverInput | undefined): boolean =>
  cover !== undefined && Object.values(cover).some((v) => v !== undefined && v !== '');

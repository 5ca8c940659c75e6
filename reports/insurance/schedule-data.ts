/**
 * The broker's schedule (issue 37): per portfolio and insurer, each item with its description,
 * its current insured value, the proposed value (the replacement value the report's review
 * gives, rounded UP to the firm's step) and the change. Every figure but the rounding is the
 * review's (src/insurance, read from the report data): nothing here recomputes a status or gap.
 */
import { cents, type InsuranceItem, type InsuranceReview, type InsuranceStatus, type ReplacementBasis } from '../../src/insurance';
import type { Brand } from '../../src/brand';
import type { Language } from '../../src/i18n';
import type { Holding } from '../report-holding';

/** Where the valuation behind a line came from: the same day's month-end (its answers reused), or this command's own call. */
export type ValuationSource = 'month-end' | 'service';

export interface ScheduleItem {
  /** 1-based line of the schedule. */
  item: number;
  asset_id: string;
  /** As the report names the holding (brand, model, reference, year). */
  description: string;
  /** The holding's segment id, for its name. */
  segment: string | null;
  serial: string | null;
  policy: string | null;
  renewal_date: string | null;
  /** In the schedule's currency; null: not insured today. */
  insured_value: number | null;
  /** The review's replacement value, before rounding. */
  replacement_value: number;
  /** replacement_value rounded up to the step. */
  proposed_value: number;
  /** proposed_value − insured_value (the whole proposed value when not insured). */
  change: number;
  status: InsuranceStatus;
  valued_on: string;
  source: ValuationSource;
}

export interface ScheduleData {
  portfolio: string;
  client_name: string;
  /** Null: the items no insurer covers (to place). */
  insurer: string | null;
  as_of: string;
  generated_at: string;
  currency: string;
  basis: ReplacementBasis;
  round: number;
  sandbox: boolean;
  language: Language;
  brand?: Brand;
  items: ScheduleItem[];
  totals: { insured_value: number; proposed_value: number; change: number };
  /** The report id the schedule derives from, for the footer. */
  reference: string;
}


/**
 * `amount` rounded up to a multiple of `step` (500: 12,001 → 12,500; 12,500 stays). Taken to
 * the cent first, so 12,500.000000001 from a currency conversion does not become 13,000.
 */
export function roundUp(amount: number, step: number): number {
  const inCents = Math.round(amount * 100);
  const stepCents = Math.round(step * 100);
  return (Math.ceil(inCents / stepCents) * stepCents) / 100;
}

export interface ScheduleContext {
  portfolio: string;
  clientName: string;
  asOf: string;
  generatedAt: string;
  currency: string;
  round: number;
  sandbox: boolean;
  language: Language;
  brand?: Brand;
  reference: string;
  /** The report's holdings, for each item's segment. */
  holdings: readonly Pick<Holding, 'row' | 'asset_id' | 'segment'>[];
  /** Whether an item's valuation was reused from the month-end, by asset id. */
  sourceOf(assetId: string): ValuationSource;
}

/**
 * One schedule per insurer of the review's items (in the review's order: largest shortfall
 * first), the items without one last under `null`; `insurer` keeps only that insurer's.
 */
export function schedulesOf(review: InsuranceReview, ctx: ScheduleContext, insurer?: string): ScheduleData[] {
  const byInsurer = new Map<string | null, InsuranceItem[]>();
  for (const item of review.items) {
    if (insurer !== undefined && item.insurer !== insurer) continue;
    const list = byInsurer.get(item.insurer) ?? [];
    list.push(item);
    byInsurer.set(item.insurer, list);
  }
  const insurers = [...byInsurer.keys()].sort((a, b) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)));
  // Each item's segment by its own row (several lots of one asset share an asset id), else by its asset id: looked up once, not searched per item.
  const byRow = new Map(ctx.holdings.map((h) => [h.row, h.segment]));
  // The first holding of an asset id wins, as a search from the top would find it.
  const byAsset = new Map([...ctx.holdings].reverse().map((h) => [h.asset_id, h.segment]));
  const segmentOf = (i: InsuranceItem) => (i.row !== undefined ? byRow.get(i.row) : byAsset.get(i.asset_id)) ?? null;
  return insurers.map((name) => {
    const items = byInsurer.get(name)!.map((i, k) => scheduleItem(i, k + 1, ctx, segmentOf(i)));
    const sum = (f: (i: ScheduleItem) => number) => items.reduce((s, i) => cents(s + f(i)), 0);
    return {
      portfolio: ctx.portfolio,
      client_name: ctx.clientName,
      insurer: name,
      as_of: ctx.asOf,
      generated_at: ctx.generatedAt,
      currency: ctx.currency,
      basis: review.basis,
      round: ctx.round,
      sandbox: ctx.sandbox,
      language: ctx.language,
      ...(ctx.brand ? { brand: ctx.brand } : {}),
      items,
      totals: { insured_value: sum((i) => i.insured_value ?? 0), proposed_value: sum((i) => i.proposed_value), change: sum((i) => i.change) },
      reference: ctx.reference,
    };
  });
}

function scheduleItem(i: InsuranceItem, line: number, ctx: ScheduleContext, segment: string | null): ScheduleItem {
  const proposed = roundUp(i.replacement_value, ctx.round);
  return {
    item: line,
    asset_id: i.asset_id,
    description: i.description,
    segment,
    serial: i.serial,
    policy: i.policy,
    renewal_date: i.renewal_date,
    insured_value: i.insured_value,
    replacement_value: i.replacement_value,
    proposed_value: proposed,
    change: cents(proposed - (i.insured_value ?? 0)),
    status: i.status,
    valued_on: ctx.asOf,
    source: ctx.sourceOf(i.asset_id),
  };
}

/**
 * The PDF's insurance review (issue 37), after the holdings: each item's insured value against
 * its mid and high estimates and its replacement value, the gap and the status, largest
 * shortfall first; the totals per status and the total shortfall; the renewals due soon. The
 * figures are the review's (src/insurance, in the report data): nothing is recomputed here.
 * No section at all when the report has no review (a portfolio without insurance columns).
 */
import type { InsuranceItem, InsuranceReview, InsuranceStatus } from '../../src/insurance';
import { INSURANCE_STATUSES } from '../../src/insurance';
import type { Translator } from '../../src/i18n';
import type { ReportData } from '../report-data';
import { statusLabel } from './insurance-words';
import { PALETTE } from './palette';
import type { PdfPages } from './pdf-layout';
import { PDF_MAX_HOLDINGS } from './pdf-holdings';
import { drawTable, type PdfCell, type PdfColumn, type PdfRow } from './pdf-table';
import { reportTranslator } from './report-language';

const STATUS_COLOUR: Record<InsuranceStatus, string> = {
  'under-insured': PALETTE.negative,
  'over-insured': PALETTE.warning,
  covered: PALETTE.positive,
  'not-insured': PALETTE.muted,
};

/** The cell naming a status, with since when an item has been under-insured (the history's) beneath. */
function statusCell(item: InsuranceItem, tr: Translator): PdfCell {
  const cell = { text: statusLabel(item.status, tr), colour: STATUS_COLOUR[item.status], bold: item.status === 'under-insured' };
  return item.under_insured_since ? { ...cell, sub: tr.t('insurance.since', { date: tr.shortDate(item.under_insured_since) }) } : cell;
}

/** The insured value in the report's currency, with the amount in the policy's own currency beneath when that was another. */
function insuredCell(item: InsuranceItem, cur: string, tr: Translator): PdfCell {
  const text = tr.money(item.insured_value, cur, 0);
  const original = item.insured_value_original;
  return original && original.currency !== cur ? { text, sub: tr.amountIn(original.amount, original.currency) } : { text };
}

function itemColumns(tr: Translator, width: number): PdfColumn[] {
  // Landscape, as the holdings: a heading such as "Wiederbeschaffungswert" is one word that must fit its column whole.
  const figures: PdfColumn[] = [
    { label: tr.t('insurance.insured_value'), width: 92, align: 'right' },
    { label: tr.t('insurance.mid'), width: 80, align: 'right' },
    { label: tr.t('insurance.high'), width: 80, align: 'right' },
    { label: tr.t('insurance.replacement_value'), width: 112, align: 'right' },
    { label: tr.t('insurance.gap'), width: 86, align: 'right' },
    { label: tr.t('insurance.status'), width: 110 },
  ];
  return [{ label: tr.t('insurance.holding'), width: width - figures.reduce((s, c) => s + c.width, 0) }, ...figures];
}

function* itemRows(items: readonly InsuranceItem[], cur: string, tr: Translator): Iterable<PdfRow> {
  for (const item of items) {
    yield [
      { text: item.description, sub: [item.asset_id, ...(item.serial ? [item.serial] : [])].join(' · ') },
      insuredCell(item, cur, tr),
      tr.money(item.mid, cur, 0),
      tr.money(item.high, cur, 0),
      tr.money(item.replacement_value, cur, 0),
      // A shortfall (positive gap) in red: that is what the client would be short of on a claim.
      { text: tr.money(item.gap, cur, 0), colour: item.gap === null ? PALETTE.muted : item.gap > 0 ? PALETTE.negative : PALETTE.ink },
      statusCell(item, tr),
    ];
  }
}

function drawTotals(p: PdfPages, review: InsuranceReview, cur: string, tr: Translator): void {
  const t = review.totals;
  const columns: PdfColumn[] = [
    { label: tr.t('insurance.status'), width: 180 },
    { label: tr.t('insurance.items'), width: 80, align: 'right' },
    { label: tr.t('insurance.insured_value'), width: 140, align: 'right' },
    { label: tr.t('insurance.replacement_value'), width: 140, align: 'right' },
  ];
  const rows: PdfRow[] = INSURANCE_STATUSES.map((s) => [
    { text: statusLabel(s, tr), colour: STATUS_COLOUR[s] },
    tr.number(t.by_status[s].count),
    tr.money(t.by_status[s].insured_value, cur, 0),
    tr.money(t.by_status[s].replacement_value, cur, 0),
  ]);
  const count = INSURANCE_STATUSES.reduce((n, s) => n + t.by_status[s].count, 0);
  drawTable(p, columns, rows, {
    heading: tr.t('insurance.totals_heading'),
    totalRow: [tr.t('insurance.total'), tr.number(count), tr.money(t.insured_value, cur, 0), tr.money(t.replacement_value, cur, 0)],
  });
  p.paragraph(tr.t('insurance.total_shortfall_line', { amount: tr.money(t.total_shortfall, cur, 0), count: t.by_status['under-insured'].count }), { size: 10 });
}

function drawRenewals(p: PdfPages, review: InsuranceReview, cur: string, tr: Translator): void {
  const days = review.renewal_window_days;
  if (review.renewals.length === 0) {
    p.subheading(tr.t('insurance.renewals_heading', { days }));
    p.paragraph(tr.t('insurance.no_renewals', { days }), { size: 9, colour: PALETTE.muted });
    return;
  }
  const fixed = 150 + 120 + 110 + 110;
  drawTable(
    p,
    [
      { label: tr.t('insurance.insurer'), width: 150 },
      { label: tr.t('insurance.policy'), width: 120 },
      { label: tr.t('insurance.holding'), width: p.width - fixed },
      { label: tr.t('insurance.renewal_date'), width: 110 },
      { label: tr.t('insurance.insured_value'), width: 110, align: 'right' },
    ],
    review.renewals.map((r) => [
      r.insurer ?? '–',
      r.policy ?? '–',
      { text: r.description, sub: r.asset_id },
      { text: tr.shortDate(r.renewal_date!), sub: tr.t('insurance.renews_in', { days: r.renews_in_days! }) },
      tr.money(r.insured_value, cur, 0),
    ]),
    { heading: tr.t('insurance.renewals_heading', { days }) },
  );
}

/** The insurance review section, when the report has one (report data's `insurance`); nothing otherwise. */
export function drawInsuranceReview(p: PdfPages, data: ReportData): void {
  const review = data.insurance;
  if (!review) return;
  const cur = data.cover.currency;
  const tr = reportTranslator(data);
  p.addPage('landscape');
  p.section(tr.t('insurance.title'));
  p.paragraph(
    tr.t('insurance.pdf_intro', {
      currency: cur,
      basis: review.basis,
      tolerance: tr.percent(review.tolerance * 100, { digits: 0 }),
      factor: tr.number(review.over_insured_factor, 2),
    }),
    { size: 8, colour: PALETTE.muted },
  );
  // As the holdings table: a very large portfolio lists its largest shortfalls, and the workbook and JSON every item.
  const shown = review.items.length > PDF_MAX_HOLDINGS ? review.items.slice(0, PDF_MAX_HOLDINGS) : review.items;
  if (shown.length < review.items.length) p.note(tr.t('insurance.pdf_capped', { count: tr.number(review.items.length), shown: tr.number(shown.length) }));
  drawTable(p, itemColumns(tr, p.width), itemRows(shown, cur, tr), { fontSize: 7.5 });
  drawTotals(p, review, cur, tr);
  drawRenewals(p, review, cur, tr);
}

/**
 * The insurance review on the page (pdf-insurance.ts, issue 37), when the report has one: each
 * item's cover against its values, the gap and the status (in words, never by colour alone), the
 * totals per status, the renewals due soon. The review's figures; nothing recomputed.
 */
import { INSURANCE_STATUSES, type InsuranceItem, type InsuranceReview } from '../../src/insurance';
import type { Translator } from '../../src/i18n';
import type { ReportData } from '../report-data';
import { html, type SafeHtml } from './html-escape';
import { htmlTable, type HtmlCell, type HtmlRow } from './html-table';
import { statusLabel } from './insurance-words';

function statusCell(item: InsuranceItem, tr: Translator): HtmlCell {
  const cell = { text: statusLabel(item.status, tr), bold: item.status === 'under-insured' };
  return item.under_insured_since ? { ...cell, sub: tr.t('insurance.since', { date: tr.shortDate(item.under_insured_since) }) } : cell;
}

function itemRow(item: InsuranceItem, cur: string, tr: Translator): HtmlRow {
  const original = item.insured_value_original;
  const money = (v: number | null): HtmlCell => ({ text: tr.money(v, cur, 0), value: v });
  return [
    { text: item.description, sub: [item.asset_id, ...(item.serial ? [item.serial] : [])].join(' · ') },
    { ...money(item.insured_value), sub: original && original.currency !== cur ? tr.amountIn(original.amount, original.currency) : undefined },
    money(item.mid),
    money(item.high),
    money(item.replacement_value),
    // A shortfall (a positive gap) is what the client would be short of on a claim: shown as a loss.
    { ...money(item.gap), sign: item.gap === null ? null : -item.gap },
    statusCell(item, tr),
  ];
}

function totals(review: InsuranceReview, cur: string, tr: Translator): SafeHtml {
  const t = review.totals;
  const count = INSURANCE_STATUSES.reduce((n, s) => n + t.by_status[s].count, 0);
  return html`<h3>${tr.t('insurance.totals_heading')}</h3>${htmlTable({
    caption: tr.t('insurance.totals_heading'),
    columns: [{ label: tr.t('insurance.status') }, { label: tr.t('insurance.items'), numeric: true }, { label: tr.t('insurance.insured_value'), numeric: true }, { label: tr.t('insurance.replacement_value'), numeric: true }],
    rows: INSURANCE_STATUSES.map((s) => [statusLabel(s, tr), tr.number(t.by_status[s].count), tr.money(t.by_status[s].insured_value, cur, 0), tr.money(t.by_status[s].replacement_value, cur, 0)]),
    total: [tr.t('insurance.total'), tr.number(count), tr.money(t.insured_value, cur, 0), tr.money(t.replacement_value, cur, 0)],
  })}
<p>${tr.t('insurance.total_shortfall_line', { amount: tr.money(t.total_shortfall, cur, 0), count: t.by_status['under-insured'].count })}</p>`;
}

function renewals(review: InsuranceReview, cur: string, tr: Translator): SafeHtml {
  const days = review.renewal_window_days;
  const heading = html`<h3>${tr.t('insurance.renewals_heading', { days })}</h3>`;
  if (review.renewals.length === 0) return html`${heading}<p class="muted">${tr.t('insurance.no_renewals', { days })}</p>`;
  return html`${heading}${htmlTable({
    caption: tr.t('insurance.renewals_heading', { days }),
    columns: [{ label: tr.t('insurance.holding') }, { label: tr.t('insurance.insurer') }, { label: tr.t('insurance.policy') }, { label: tr.t('insurance.renewal_date') }, { label: tr.t('insurance.insured_value'), numeric: true }],
    rows: review.renewals.map((r) => [
      { text: r.description, sub: r.asset_id },
      r.insurer ?? '–',
      r.policy ?? '–',
      { text: tr.shortDate(r.renewal_date!), sub: tr.t('insurance.renews_in', { days: r.renews_in_days! }) },
      tr.money(r.insured_value, cur, 0),
    ]),
  })}`;
}

/** The section's body, or undefined when the report has no review. */
export function insuranceHtml(data: ReportData, tr: Translator): SafeHtml | undefined {
  const review = data.insurance;
  if (!review) return undefined;
  const cur = data.cover.currency;
  return html`<p class="muted">${tr.t('insurance.pdf_intro', { currency: cur, basis: review.basis, tolerance: tr.percent(review.tolerance * 100, { digits: 0 }), factor: tr.number(review.over_insured_factor, 2) })}</p>
${htmlTable({
  caption: tr.t('insurance.title'),
  columns: [
    { label: tr.t('insurance.holding') }, { label: tr.t('insurance.insured_value'), numeric: true }, { label: tr.t('insurance.mid'), numeric: true }, { label: tr.t('insurance.high'), numeric: true },
    { label: tr.t('insurance.replacement_value'), numeric: true }, { label: tr.t('insurance.gap'), numeric: true }, { label: tr.t('insurance.status') },
  ],
  rows: review.items.map((item) => itemRow(item, cur, tr)),
})}
${totals(review, cur, tr)}
${renewals(review, cur, tr)}`;
}

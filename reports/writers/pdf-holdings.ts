/** The PDF's holdings table (landscape), capped at PDF_MAX_HOLDINGS rows with one line for the rest. */
import type { Holding, ReportData } from '../report-data';
import { PALETTE } from './palette';
import type { PdfPages } from './pdf-layout';
import { signedColour } from './pdf-signed-colour';
import { drawTable, type PdfCell, type PdfColumn, type PdfRow } from './pdf-table';
import { largestHoldings } from './largest-holdings';
import { holdingPeriod } from './return-period';
import { PSEUDO_LANGUAGE, type Translator } from '../../src/i18n';
import { reportTranslator } from './report-language';
import { formatRate } from './text-format';
import { segmentName } from '../client-words';
import { textDate } from './labels';

function holdingsColumns(internal: boolean, tr: Translator): PdfColumn[] {
  // 742 pt of the landscape page's 746: the purchase currency and rates ride under Cost and FX rate as second lines.
  return [
    { label: tr.t('pdf.col_row'), width: 24, align: 'right' },
    { label: tr.t('pdf.col_holding'), width: 144 },
    // The internal report shows each holding's portfolio where a client report shows its segment.
    { label: internal ? tr.t('pdf.col_portfolio') : tr.t('common.segment'), width: 64 },
    { label: tr.t('pdf.col_qty'), width: 22, align: 'right' },
    { label: tr.t('pdf.col_purchased'), width: 50 },
    { label: tr.t('common.cost'), width: 72, align: 'right' },
    { label: tr.t('pdf.col_fx_rate'), width: 46, align: 'right' },
    { label: tr.t('pdf.col_value_range'), width: 74, align: 'right' },
    { label: tr.t('pdf.col_return'), width: 44, align: 'right' },
    { label: tr.t('pdf.col_irr'), width: 40, align: 'right' },
    { label: tr.t('pdf.col_weight'), width: 38, align: 'right' },
    { label: tr.t('pdf.col_month'), width: 40, align: 'right' },
    { label: tr.t('common.score'), width: 28, align: 'right' },
    { label: tr.t('pdf.col_conf'), width: 28, align: 'right' },
    { label: tr.t('pdf.col_valid'), width: 28, align: 'center' },
  ];
}

/** Cost in the report's currency, with the price paid in its own currency beneath when that was another. */
function costCell(h: Holding, cur: string, tr: Translator): PdfCell {
  const cost = tr.money(h.purchase_price, cur, 0);
  return h.purchase_currency === cur ? { text: cost } : { text: cost, sub: tr.amountIn(h.purchase_price_original, h.purchase_currency) };
}

/** The purchase date's rate, and the as-of date's beneath; a dash for a purchase in the report's own currency. */
function fxCell(h: Holding, cur: string, tr: Translator): PdfCell {
  return h.purchase_currency === cur ? { text: '–' } : { text: rate(h.fx_rate_purchase, tr), sub: tr.t('pdf.fx_now', { rate: rate(h.fx_rate_as_of, tr) }) };
}

/** An exchange rate to four significant digits; the translator has no such format, so Intl's in the language (English as the house prints it). */
function rate(value: number | null, tr: Translator): string {
  if (tr.lang === 'en' || value === null || !Number.isFinite(value) || value <= 0) return formatRate(value);
  return new Intl.NumberFormat(tr.lang === PSEUDO_LANGUAGE ? 'en-US' : tr.lang, { maximumSignificantDigits: 4, useGrouping: false }).format(value);
}

/** The IRR, or for a holding held under a year its return over the days held, marked as such beneath. */
function irrCell(h: Holding, asOf: string, tr: Translator): PdfCell {
  const cell = { text: tr.returnPercent(h.money_weighted_return_percent), colour: signedColour(h.money_weighted_return_percent) };
  const held = holdingPeriod(h, asOf);
  return held.annualised || h.money_weighted_return_percent === null ? cell : { ...cell, sub: tr.t('pdf.days', { days: held.days }) };
}

function* holdingRows(holdings: Iterable<Holding>, cur: string, asOf: string, tr: Translator, internal = false): Iterable<PdfRow> {
  for (const h of holdings) {
    yield [
      String(h.row),
      { text: h.description, sub: internal ? `${segmentName(tr, h.segment)} · ${h.asset_id}` : h.asset_id },
      internal ? h.portfolio : segmentName(tr, h.segment),
      tr.number(h.quantity),
      textDate(tr, h.purchase_date, 'shortDate'),
      costCell(h, cur, tr),
      fxCell(h, cur, tr),
      { text: tr.money(h.current_value, cur, 0), sub: `${tr.compactMoney(h.value_low, cur)}–${tr.compactMoney(h.value_high, cur)}` },
      { text: tr.returnPercent(h.return_percent), colour: signedColour(h.return_percent) },
      irrCell(h, asOf, tr),
      tr.percent(h.weight_percent),
      { text: tr.percent(h.month_on_month_percent, { signed: true }), colour: signedColour(h.month_on_month_percent) },
      tr.number(h.service_score),
      tr.number(h.confidence, 2),
      h.market_validated ? { text: tr.t('pdf.yes') } : { text: tr.t('pdf.no'), colour: PALETTE.warning, bold: true },
    ];
  }
}

/**
 * A client PDF lists at most this many holdings (about 60 pages); a larger portfolio shows its
 * largest ones and one line for the rest, and the complete list stays in the XLSX, CSV and JSON.
 * Without the cap a 100,000-holding PDF would take minutes and gigabytes (pages are buffered
 * until the page count is known).
 */
export const PDF_MAX_HOLDINGS = 1000;

export function drawHoldings(p: PdfPages, data: ReportData): void {
  const cur = data.cover.currency;
  const s = data.summary;
  const tr = reportTranslator(data);
  p.addPage('landscape');
  p.section(tr.t('common.holdings'));
  p.paragraph(tr.t('pdf.holdings_intro', { currency: cur }), { size: 8, colour: PALETTE.muted });
  const internal = data.cover.audience === 'internal';
  let rows: Iterable<PdfRow> = holdingRows(data.holdings, cur, data.cover.as_of, tr, internal);
  if (s.asset_count > PDF_MAX_HOLDINGS) {
    const { top, restCount, restValue, restCost } = largestHoldings(data.holdings, PDF_MAX_HOLDINGS);
    const restShare = tr.percent(s.current_value > 0 ? (restValue / s.current_value) * 100 : 0);
    p.note(tr.t('pdf.holdings_capped', { count: s.asset_count, shown: tr.number(top.length), rest: tr.number(restCount), share: restShare }));
    const rest: PdfRow = ['', { text: tr.t('pdf.other_holdings', { count: tr.number(restCount) }), bold: true }, '', '', '', tr.money(restCost, cur, 0), '', tr.money(restValue, cur, 0), '', '', restShare, '', '', '', ''];
    rows = (function* () {
      yield* holdingRows(top, cur, data.cover.as_of, tr, internal);
      yield rest;
    })();
  }
  drawTable(p, holdingsColumns(internal, tr), rows, {
    fontSize: 7.5,
    totalRow: ['', tr.t('pdf.total'), '', '', '', tr.money(s.total_invested, cur, 0), '', tr.money(s.current_value, cur, 0), tr.percent(s.total_return_percent, { signed: true }), tr.returnPercent(s.money_weighted_return_percent), tr.percent(100), '', '', '', ''],
  });
}

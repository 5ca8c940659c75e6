/**
 * The holdings table of the page (pdf-holdings.ts's columns and figures): every holding (a page
 * has no page count to cap), the total at the foot. Numeric cells carry their raw number for the
 * script's sorting; the table's id is the script's hook.
 */
import type { Translator } from '../../src/i18n';
import type { Holding, ReportData } from '../report-data';
import { segmentName } from '../client-words';
import { html, type SafeHtml } from './html-escape';
import { htmlTable, type HtmlColumn, type HtmlRow } from './html-table';
import { textDate } from './labels';
import { holdingPeriod } from './return-period';

export const HOLDINGS_TABLE_ID = 'holdings';

function columns(internal: boolean, tr: Translator): HtmlColumn[] {
  return [
    { label: tr.t('pdf.col_holding') },
    { label: tr.t('pdf.col_row'), numeric: true },
    { label: internal ? tr.t('pdf.col_portfolio') : tr.t('common.segment') },
    { label: tr.t('pdf.col_qty'), numeric: true },
    { label: tr.t('pdf.col_purchased') },
    { label: tr.t('common.cost'), numeric: true },
    { label: tr.t('pdf.col_value_range'), numeric: true },
    { label: tr.t('pdf.col_return'), numeric: true },
    { label: tr.t('pdf.col_irr'), numeric: true },
    { label: tr.t('pdf.col_weight'), numeric: true },
    { label: tr.t('pdf.col_month'), numeric: true },
    { label: tr.t('common.score'), numeric: true },
    { label: tr.t('pdf.col_conf'), numeric: true },
    { label: tr.t('pdf.col_valid') },
  ];
}

function* rows(data: ReportData, tr: Translator, internal: boolean): Iterable<HtmlRow> {
  const cur = data.cover.currency;
  for (const h of data.holdings as Iterable<Holding>) {
    const held = holdingPeriod(h, data.cover.as_of);
    yield [
      { text: h.description, sub: internal ? `${segmentName(tr, h.segment)} · ${h.asset_id}` : h.asset_id },
      { text: String(h.row), value: h.row },
      internal ? h.portfolio : segmentName(tr, h.segment),
      { text: tr.number(h.quantity), value: h.quantity },
      textDate(tr, h.purchase_date, 'shortDate'),
      { text: tr.money(h.purchase_price, cur, 0), value: h.purchase_price, sub: h.purchase_currency === cur ? undefined : tr.amountIn(h.purchase_price_original, h.purchase_currency) },
      { text: tr.money(h.current_value, cur, 0), value: h.current_value, sub: `${tr.compactMoney(h.value_low, cur)}–${tr.compactMoney(h.value_high, cur)}` },
      { text: tr.returnPercent(h.return_percent), value: h.return_percent, sign: h.return_percent },
      {
        text: tr.returnPercent(h.money_weighted_return_percent),
        value: h.money_weighted_return_percent,
        sign: h.money_weighted_return_percent,
        sub: held.annualised || h.money_weighted_return_percent === null ? undefined : tr.t('pdf.days', { days: held.days }),
      },
      { text: tr.percent(h.weight_percent), value: h.weight_percent },
      { text: tr.percent(h.month_on_month_percent, { signed: true }), value: h.month_on_month_percent, sign: h.month_on_month_percent },
      { text: tr.number(h.service_score), value: h.service_score },
      { text: tr.number(h.confidence, 2), value: h.confidence },
      h.market_validated ? tr.t('pdf.yes') : { text: tr.t('pdf.no'), bold: true },
    ];
  }
}

/** The table, its intro, and the filter the script shows (hidden without script: it would do nothing). */
export function holdingsHtml(data: ReportData, tr: Translator): SafeHtml {
  const s = data.summary;
  const cur = data.cover.currency;
  const internal = data.cover.audience === 'internal';
  return html`<p class="muted">${tr.t('pdf.holdings_intro', { currency: cur })}</p>
<div class="filter" id="${HOLDINGS_TABLE_ID}-filter" hidden>
<label for="${HOLDINGS_TABLE_ID}-filter-input">${tr.t('html.filter_label')}</label>
<input type="search" id="${HOLDINGS_TABLE_ID}-filter-input" aria-describedby="${HOLDINGS_TABLE_ID}-filter-hint" autocomplete="off">
<p id="${HOLDINGS_TABLE_ID}-filter-hint" class="muted">${tr.t('html.filter_hint')}</p>
<p id="${HOLDINGS_TABLE_ID}-filter-count" aria-live="polite" data-template="${tr.t('html.filter_count', { shown: '{shown}', total: '{total}' })}"></p>
</div>
${htmlTable({
  id: HOLDINGS_TABLE_ID,
  sortLabel: (column) => tr.t('html.sort_by', { column }),
  caption: tr.t('common.holdings'),
  columns: columns(internal, tr),
  rows: rows(data, tr, internal),
  total: [tr.t('pdf.total'), '', '', '', '', tr.money(s.total_invested, cur, 0), tr.money(s.current_value, cur, 0), tr.percent(s.total_return_percent, { signed: true }), tr.returnPercent(s.money_weighted_return_percent), tr.percent(100), '', '', '', ''],
})}`;
}

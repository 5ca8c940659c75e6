/**
 * The portfolio's own performance on the page (pdf-history.ts): its value over time with the
 * money put in, the returns over the standard periods, realised gains and this period's
 * transactions, from the report's history (nothing recomputed: cumulativeNetFlows and the labels
 * are the PDF's helpers).
 */
import type { Translator } from '../../src/i18n';
import { PERIOD_KEYS, type PeriodFigures, type ReportData, type ReportHistory } from '../report-data';
import { sourceWords } from '../client-words';
import type { Theme } from './brand-theme';
import { lineAlt, type Line } from './chart-words';
import { cumulativeNetFlows, periodLabel, reasonFootnotes, transactionAsset, transactionTypeLabel } from './history-labels';
import { lineFigure } from './html-charts';
import { html, type SafeHtml } from './html-escape';
import { htmlTable, type HtmlCell, type HtmlRow } from './html-table';

/** A quantity as entered: "6", "0.5". */
const quantityText = (q: number | null) => (q === null ? '—' : String(Math.round(q * 10_000) / 10_000));

function valueChart(h: ReportHistory, currency: string, tr: Translator, theme: Theme): SafeHtml {
  const points = h.value_history;
  const title = tr.t('pdf.value_over_time');
  if (points.length < 2) {
    return html`<h3>${title}</h3><p class="muted">${points.length === 1 ? tr.t('pdf.one_month_end', { date: tr.date(points[0]!.as_of) }) : tr.t('pdf.no_month_end')}</p>`;
  }
  const dates = points.map((pt) => pt.as_of);
  const lines: Line[] = [
    { label: tr.t('pdf.line_value'), values: points.map((pt) => pt.value), colour: theme.primary },
    { label: tr.t('pdf.line_net_flows'), values: cumulativeNetFlows(points), colour: theme.accent, dashed: true },
  ];
  const money = (v: number) => tr.money(v, currency, 0);
  return html`<h3>${title}</h3>
${lineFigure({ id: 'value-chart', title, caption: lineAlt(tr.t('pdf.value_chart_alt'), dates, lines, money, tr), dates, lines, format: money, axisFormat: (v) => tr.compactMoney(v, currency), dateColumn: tr.t('pdf.col_date'), tr })}
<p class="muted">${tr.t('pdf.value_chart_note')}</p>`;
}

/** A return as printed: "+4.2 %", "+4.2 % a year" for a period longer than a year, "— (1)" with its note's number. */
function returnCell(value: number | null, period: PeriodFigures, noteNumber: number | undefined, tr: Translator): HtmlCell {
  if (value === null) return { text: noteNumber === undefined ? '—' : `— (${noteNumber})` };
  const figure = tr.percent(value, { signed: true });
  return { text: period.annualised ? tr.t('pdf.return_a_year', { value: figure }) : figure, value, sign: value };
}

function periods(h: ReportHistory, currency: string, tr: Translator): SafeHtml {
  const { notes, noteFor } = reasonFootnotes(tr);
  const money = (v: number): HtmlCell => ({ text: tr.money(v, currency, 0), value: v });
  const rows: HtmlRow[] = PERIOD_KEYS.map((key) => {
    const period = h.performance.periods[key];
    if (period === null) {
      const n = noteFor(h.performance.unavailable[key]);
      return [periodLabel(key, tr), n === undefined ? tr.t('pdf.not_enough_history') : tr.t('pdf.not_enough_history_note', { note: n }), '', '', '', '', ''];
    }
    const n = period.twr_percent === null || period.mwr_percent === null ? noteFor(period.note) : undefined;
    return [periodLabel(key, tr), tr.shortDate(period.from), returnCell(period.twr_percent, period, n, tr), returnCell(period.mwr_percent, period, n, tr), money(period.start_value), money(period.end_value), money(period.net_flows)];
  });
  const table = htmlTable({
    caption: tr.t('pdf.periods_heading'),
    columns: [
      { label: tr.t('pdf.col_period') }, { label: tr.t('pdf.col_from') }, { label: tr.t('pdf.col_time_weighted'), numeric: true }, { label: tr.t('pdf.col_money_weighted'), numeric: true },
      { label: tr.t('pdf.col_start_value'), numeric: true }, { label: tr.t('pdf.col_end_value'), numeric: true }, { label: tr.t('common.net_flows'), numeric: true },
    ],
    rows,
  });
  return html`<h3>${tr.t('pdf.periods_heading')}</h3>${table}
${notes.map((note, i) => html`<p class="muted">(${i + 1}) ${note}</p>`)}
<p class="muted">${tr.t('pdf.periods_note', { method: tr.t('pdf.twr_method') })}</p>`;
}

function gains(h: ReportHistory, currency: string, tr: Translator): SafeHtml {
  const money = (v: number) => tr.money(v, currency);
  const lines = h.realised_gain.lines;
  const heading = html`<h3>${tr.t('pdf.realised_gains')}</h3>`;
  const unrealised = html`<p>${tr.t('pdf.unrealised_note', { amount: money(h.unrealised_gain) })}</p>`;
  if (lines.length === 0) return html`${heading}<p class="muted">${tr.t('pdf.nothing_sold')}</p>${unrealised}`;
  const table = htmlTable({
    caption: tr.t('pdf.realised_gains'),
    columns: [
      { label: tr.t('pdf.col_asset') }, { label: tr.t('pdf.col_bought') }, { label: tr.t('pdf.col_sold') }, { label: tr.t('pdf.col_quantity'), numeric: true },
      { label: tr.t('common.cost'), numeric: true }, { label: tr.t('pdf.col_proceeds'), numeric: true }, { label: tr.t('pdf.col_gain'), numeric: true },
    ],
    rows: lines.map((l) => [l.description, tr.shortDate(l.opened), tr.shortDate(l.sold), quantityText(l.quantity), money(l.cost), money(l.proceeds), { text: money(l.gain), value: l.gain, sign: l.gain }]),
    total: [tr.t('pdf.total_realised'), '', '', '', '', '', { text: money(h.realised_gain.total), sign: h.realised_gain.total }],
  });
  return html`${heading}${table}<p class="muted">${tr.t('pdf.fifo_note')}</p>${unrealised}`;
}

function transactions(h: ReportHistory, currency: string, tr: Translator): SafeHtml {
  const heading = html`<h3>${tr.t('pdf.transactions')}</h3>`;
  if (h.transactions.length === 0) return html`${heading}<p class="muted">${tr.t('pdf.no_transactions')}</p>`;
  return html`${heading}${htmlTable({
    caption: tr.t('pdf.transactions'),
    columns: [{ label: tr.t('pdf.col_date') }, { label: tr.t('pdf.col_type') }, { label: tr.t('pdf.col_asset') }, { label: tr.t('pdf.col_quantity'), numeric: true }, { label: tr.t('pdf.col_amount'), numeric: true }],
    rows: h.transactions.map((t) => [
      tr.date(t.date),
      transactionTypeLabel(t.type, tr),
      { text: transactionAsset(t, tr), sub: t.notes ?? undefined },
      quantityText(t.quantity),
      { text: tr.money(t.amount, currency), value: t.amount, sub: t.currency === currency ? undefined : tr.amountIn(t.amount_original, t.currency) },
    ]),
  })}`;
}

/** The section's body, or undefined when the report has no history (the consolidated report). */
export function portfolioPerformanceHtml(data: ReportData, tr: Translator, theme: Theme): SafeHtml | undefined {
  const h = data.history;
  if (!h) return undefined;
  const currency = data.cover.currency;
  return html`<p>${tr.t('pdf.performance_intro', { source: sourceWords(tr, h.source) })}</p>
${valueChart(h, currency, tr, theme)}
${periods(h, currency, tr)}
${gains(h, currency, tr)}
${transactions(h, currency, tr)}`;
}

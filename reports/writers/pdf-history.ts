/**
 * The PDF's "Portfolio performance" section (issue 23): what the client's own portfolio earned,
 * from the firm's records, placed before the market's measure so the two are never confused —
 * the value over time (value and cumulative net flows at each month-end), the returns over the
 * standard periods, realised and unrealised gains, and this period's transactions. Nothing is
 * drawn for a report without a history.
 */
import type { MessageKey, Translator } from '../../src/i18n';
import { PERIOD_KEYS, type PeriodFigures, type PeriodKey, type ReportData, type ReportHistory } from '../report-data';
import { PALETTE } from './palette';
import { lineAlt, lineChart, type Line } from './pdf-charts';
import type { PdfPages } from './pdf-layout';
import { signedColour } from './pdf-signed-colour';
import { drawTable, type PdfCell, type PdfRow } from './pdf-table';
import { cumulativeNetFlows, periodLabel, reasonFootnotes, transactionAsset, transactionTypeLabel } from './history-labels';
import { sourceWords } from '../client-words';
import { reportTranslator } from './report-language';


/** A quantity as entered: "6", "0.5". */
const quantityText = (q: number | null) => (q === null ? '—' : String(Math.round(q * 10_000) / 10_000));

function drawValueChart(p: PdfPages, h: ReportHistory, currency: string, tr: Translator): void {
  const points = h.value_history;
  p.subheading(tr.t('pdf.value_over_time'));
  if (points.length < 2) {
    p.paragraph(
      points.length === 1 ? tr.t('pdf.one_month_end', { date: tr.date(points[0]!.as_of) }) : tr.t('pdf.no_month_end'),
      { colour: PALETTE.muted, size: 8.5 },
    );
    return;
  }
  const dates = points.map((pt) => pt.as_of);
  const lines: Line[] = [
    { label: tr.t('pdf.line_value'), values: points.map((pt) => pt.value), colour: p.theme.primary },
    { label: tr.t('pdf.line_net_flows'), values: cumulativeNetFlows(points), colour: p.theme.accent, dashed: true },
  ];
  const { doc } = p;
  const height = 190;
  p.ensureSpace(height + 30);
  const y = doc.y;
  const alt = lineAlt(tr.t('pdf.value_chart_alt'), dates, lines, (v) => tr.money(v, currency, 0), tr);
  p.figure(alt, { x: p.left, y, width: p.width, height }, () => lineChart(doc, p.left, y, p.width, height, dates, lines, (v) => tr.compactMoney(v, currency), tr, p));
  doc.y = y + height + 8;
  doc.x = p.left;
  p.paragraph(tr.t('pdf.value_chart_note'), { colour: PALETTE.muted, size: 8 });
}

/** A return as printed: "+4.2 %", "+4.2 % a year" for a period longer than a year, "— (1)" with its note's number. */
function returnCell(value: number | null, period: PeriodFigures, noteNumber: number | undefined, tr: Translator): PdfCell {
  if (value === null) return { text: noteNumber === undefined ? '—' : `— (${noteNumber})`, colour: PALETTE.muted };
  const figure = tr.percent(value, { signed: true });
  return { text: period.annualised ? tr.t('pdf.return_a_year', { value: figure }) : figure, colour: signedColour(value) };
}

function drawPeriods(p: PdfPages, h: ReportHistory, currency: string, tr: Translator): void {
  const { notes, noteFor } = reasonFootnotes(tr);
  const money = (v: number) => tr.money(v, currency, 0);
  const rows: PdfRow[] = PERIOD_KEYS.map((key) => {
    const period = h.performance.periods[key];
    if (period === null) {
      const n = noteFor(h.performance.unavailable[key]);
      return [periodLabel(key, tr), { text: n === undefined ? tr.t('pdf.not_enough_history') : tr.t('pdf.not_enough_history_note', { note: n }), colour: PALETTE.muted }, '', '', '', '', ''];
    }
    const n = period.twr_percent === null || period.mwr_percent === null ? noteFor(period.note) : undefined;
    return [
      periodLabel(key, tr),
      tr.shortDate(period.from),
      returnCell(period.twr_percent, period, n, tr),
      returnCell(period.mwr_percent, period, n, tr),
      money(period.start_value),
      money(period.end_value),
      { text: money(period.net_flows), colour: PALETTE.ink },
    ];
  });
  const w = p.width;
  drawTable(
    p,
    [
      { label: tr.t('pdf.col_period'), width: 78 },
      { label: tr.t('pdf.col_from'), width: 74 },
      { label: tr.t('pdf.col_time_weighted'), width: 72, align: 'right' },
      { label: tr.t('pdf.col_money_weighted'), width: 76, align: 'right' },
      { label: tr.t('pdf.col_start_value'), width: (w - 300) / 3, align: 'right' },
      { label: tr.t('pdf.col_end_value'), width: (w - 300) / 3, align: 'right' },
      { label: tr.t('common.net_flows'), width: (w - 300) / 3, align: 'right' },
    ],
    rows,
    { heading: tr.t('pdf.periods_heading') },
  );
  for (const [i, note] of notes.entries()) p.paragraph(`(${i + 1}) ${note}`, { colour: PALETTE.muted, size: 8 });
  // The time-weighted method in the language (src/performance/method.ts's TIME_WEIGHTED_METHOD is its English; the en catalogue says the same).
  p.paragraph(tr.t('pdf.periods_note', { method: tr.t('pdf.twr_method') }), { colour: PALETTE.muted, size: 8 });
}

function drawGains(p: PdfPages, h: ReportHistory, currency: string, tr: Translator): void {
  const money = (v: number) => tr.money(v, currency);
  const lines = h.realised_gain.lines;
  if (lines.length === 0) {
    p.subheading(tr.t('pdf.realised_gains'));
    p.paragraph(tr.t('pdf.nothing_sold'), { colour: PALETTE.muted, size: 8.5 });
  } else {
    const w = p.width;
    drawTable(
      p,
      [
        { label: tr.t('pdf.col_asset'), width: w - 372 },
        { label: tr.t('pdf.col_bought'), width: 60 },
        { label: tr.t('pdf.col_sold'), width: 60 },
        { label: tr.t('pdf.col_quantity'), width: 42, align: 'right' },
        { label: tr.t('common.cost'), width: 70, align: 'right' },
        { label: tr.t('pdf.col_proceeds'), width: 70, align: 'right' },
        { label: tr.t('pdf.col_gain'), width: 70, align: 'right' },
      ],
      lines.map((l) => [l.description, tr.shortDate(l.opened), tr.shortDate(l.sold), quantityText(l.quantity), money(l.cost), money(l.proceeds), { text: money(l.gain), colour: signedColour(l.gain) }]),
      { totalRow: [tr.t('pdf.total_realised'), '', '', '', '', '', { text: money(h.realised_gain.total), colour: signedColour(h.realised_gain.total) }], heading: tr.t('pdf.realised_gains') },
    );
    p.paragraph(tr.t('pdf.fifo_note'), { colour: PALETTE.muted, size: 8 });
  }
  p.paragraph(tr.t('pdf.unrealised_note', { amount: money(h.unrealised_gain) }), { size: 9 });
}

function drawTransactions(p: PdfPages, h: ReportHistory, currency: string, tr: Translator): void {
  const heading = tr.t('pdf.transactions');
  if (h.transactions.length === 0) {
    p.subheading(heading);
    p.paragraph(tr.t('pdf.no_transactions'), { colour: PALETTE.muted, size: 8.5 });
    return;
  }
  const w = p.width;
  drawTable(
    p,
    [
      { label: tr.t('pdf.col_date'), width: 80 },
      { label: tr.t('pdf.col_type'), width: 70 },
      { label: tr.t('pdf.col_asset'), width: w - 310 },
      { label: tr.t('pdf.col_quantity'), width: 60, align: 'right' },
      { label: tr.t('pdf.col_amount'), width: 100, align: 'right' },
    ],
    h.transactions.map((t) => [
      tr.date(t.date),
      transactionTypeLabel(t.type, tr),
      { text: transactionAsset(t, tr), sub: t.notes ?? undefined },
      quantityText(t.quantity),
      // An amount paid in another currency shows what was paid beneath its value in the report's.
      { text: tr.money(t.amount, currency), sub: t.currency === currency ? undefined : tr.amountIn(t.amount_original, t.currency) },
    ]),
    { heading },
  );
}

export function drawPortfolioPerformance(p: PdfPages, data: ReportData): void {
  const h = data.history;
  if (!h) return;
  const currency = data.cover.currency;
  const tr = reportTranslator(data);
  p.ensureSpace(300);
  p.section(tr.t('pdf.portfolio_performance'));
  p.paragraph(tr.t('pdf.performance_intro', { source: sourceWords(tr, h.source) }), { size: 9 });
  drawValueChart(p, h, currency, tr);
  drawPeriods(p, h, currency, tr);
  drawGains(p, h, currency, tr);
  drawTransactions(p, h, currency, tr);
}

/**
 * The PDF's "Portfolio performance" section (issue 23): what the client's own portfolio earned,
 * from the firm's records, placed before the market's measure so the two are never confused —
 * the value over time (value and cumulative net flows at each month-end), the returns over the
 * standard periods, realised and unrealised gains, and this period's transactions. Nothing is
 * drawn for a report without a history.
 */
import { TIME_WEIGHTED_METHOD } from '../../src/performance';
import { PERIOD_KEYS, type PeriodFigures, type ReportData, type ReportHistory } from '../report-data';
import { PALETTE } from './palette';
import { lineAlt, lineChart, type Line } from './pdf-charts';
import type { PdfPages } from './pdf-layout';
import { signedColour } from './pdf-signed-colour';
import { drawTable, type PdfCell, type PdfRow } from './pdf-table';
import { PERIOD_LABELS, TRANSACTION_TYPE_LABELS, cumulativeNetFlows, sentence, transactionAsset } from './history-labels';
import { formatAmountIn, formatCompactMoney, formatLongDate, formatMoney, formatPercent, formatShortDate } from './text-format';

export const PORTFOLIO_PERFORMANCE_TITLE = 'Portfolio performance';

/** A quantity as entered: "6", "0.5". */
const quantityText = (q: number | null) => (q === null ? '—' : String(Math.round(q * 10_000) / 10_000));

function drawValueChart(p: PdfPages, h: ReportHistory, currency: string): void {
  const points = h.value_history;
  p.subheading('Value over time');
  if (points.length < 2) {
    p.paragraph(
      points.length === 1
        ? `One month-end is recorded so far (${formatLongDate(points[0]!.as_of)}): the chart of the value over time starts with the second.`
        : 'No month-end is recorded yet: the chart of the value over time starts with the second.',
      { colour: PALETTE.muted, size: 8.5 },
    );
    return;
  }
  const dates = points.map((pt) => pt.as_of);
  const lines: Line[] = [
    { label: 'Value at month-end', values: points.map((pt) => pt.value), colour: p.theme.primary },
    { label: 'Money put in, net (cumulative)', values: cumulativeNetFlows(points), colour: p.theme.accent, dashed: true },
  ];
  const { doc } = p;
  const height = 190;
  p.ensureSpace(height + 30);
  const y = doc.y;
  const alt = lineAlt('Portfolio value and cumulative net flows at each month-end', dates, lines, (v) => formatMoney(v, currency, 0), formatLongDate);
  p.figure(alt, { x: p.left, y, width: p.width, height }, () => lineChart(doc, p.left, y, p.width, height, dates, lines, (v) => formatCompactMoney(v, currency)));
  doc.y = y + height + 8;
  doc.x = p.left;
  p.paragraph(
    'The solid line is the portfolio\'s value at each month-end; the dashed line is the money put in less the money taken out (purchases, fees and transfers in, less sales, income and transfers out) up to that date. The gap between them is what the portfolio has earned.',
    { colour: PALETTE.muted, size: 8 },
  );
}

/** A return as printed: "+4.2 %", "+4.2 % a year" for a period longer than a year, "— (1)" with its note's number. */
function returnCell(value: number | null, period: PeriodFigures, noteNumber: number | undefined): PdfCell {
  if (value === null) return { text: noteNumber === undefined ? '—' : `— (${noteNumber})`, colour: PALETTE.muted };
  return { text: `${formatPercent(value, 1, true)}${period.annualised ? ' a year' : ''}`, colour: signedColour(value) };
}

function drawPeriods(p: PdfPages, h: ReportHistory, currency: string): void {
  const notes: string[] = [];
  const noteFor = (text: string | undefined): number | undefined => {
    if (!text) return undefined;
    const s = sentence(text);
    const at = notes.indexOf(s);
    if (at >= 0) return at + 1;
    notes.push(s);
    return notes.length;
  };
  const money = (v: number) => formatMoney(v, currency, 0);
  const rows: PdfRow[] = PERIOD_KEYS.map((key) => {
    const period = h.performance.periods[key];
    if (period === null) {
      const n = noteFor(h.performance.unavailable[key]);
      return [PERIOD_LABELS[key], { text: n === undefined ? 'Not enough history' : `Not enough history (${n})`, colour: PALETTE.muted }, '', '', '', '', ''];
    }
    const n = period.twr_percent === null || period.mwr_percent === null ? noteFor(period.note) : undefined;
    return [
      PERIOD_LABELS[key],
      formatShortDate(period.from),
      returnCell(period.twr_percent, period, n),
      returnCell(period.mwr_percent, period, n),
      money(period.start_value),
      money(period.end_value),
      { text: money(period.net_flows), colour: PALETTE.ink },
    ];
  });
  const w = p.width;
  drawTable(
    p,
    [
      { label: 'Period', width: 78 },
      { label: 'From', width: 74 },
      { label: 'Time-weighted', width: 72, align: 'right' },
      { label: 'Money-weighted', width: 76, align: 'right' },
      { label: 'Start value', width: (w - 300) / 3, align: 'right' },
      { label: 'End value', width: (w - 300) / 3, align: 'right' },
      { label: 'Net flows', width: (w - 300) / 3, align: 'right' },
    ],
    rows,
    { heading: 'Returns over each period' },
  );
  for (const [i, note] of notes.entries()) p.paragraph(`(${i + 1}) ${note}`, { colour: PALETTE.muted, size: 8 });
  p.paragraph(
    `Each period runs from the month-end before it to the valuation date. ${TIME_WEIGHTED_METHOD} Money-weighted: the yearly rate that turns the value at the start and the money put in and taken out, on their dates, into the value at the end. A period longer than a year is given as a rate a year; a shorter one as the period's own return. Net flows: money put in less money taken out.`,
    { colour: PALETTE.muted, size: 8 },
  );
}

function drawGains(p: PdfPages, h: ReportHistory, currency: string): void {
  const money = (v: number) => formatMoney(v, currency);
  const lines = h.realised_gain.lines;
  if (lines.length === 0) {
    p.subheading('Realised gains');
    p.paragraph('Nothing has been sold since the first recorded transaction.', { colour: PALETTE.muted, size: 8.5 });
  } else {
    const w = p.width;
    drawTable(
      p,
      [
        { label: 'Asset', width: w - 372 },
        { label: 'Bought', width: 60 },
        { label: 'Sold', width: 60 },
        { label: 'Quantity', width: 42, align: 'right' },
        { label: 'Cost', width: 70, align: 'right' },
        { label: 'Proceeds', width: 70, align: 'right' },
        { label: 'Gain', width: 70, align: 'right' },
      ],
      lines.map((l) => [l.description, formatShortDate(l.opened), formatShortDate(l.sold), quantityText(l.quantity), money(l.cost), money(l.proceeds), { text: money(l.gain), colour: signedColour(l.gain) }]),
      { totalRow: ['Total realised gains', '', '', '', '', '', { text: money(h.realised_gain.total), colour: signedColour(h.realised_gain.total) }], heading: 'Realised gains' },
    );
    p.paragraph('Each sale is matched against the earliest purchases of the asset (first in, first out); cost at the purchase day\'s exchange rate, proceeds at the sale day\'s.', { colour: PALETTE.muted, size: 8 });
  }
  p.paragraph(`Unrealised gain on what is held today: ${money(h.unrealised_gain)} (the value less what the holdings cost).`, { size: 9 });
}

export const TRANSACTIONS_HEADING = 'Transactions this period';

function drawTransactions(p: PdfPages, h: ReportHistory, currency: string): void {
  if (h.transactions.length === 0) {
    p.subheading(TRANSACTIONS_HEADING);
    p.paragraph('No transactions this period.', { colour: PALETTE.muted, size: 8.5 });
    return;
  }
  const w = p.width;
  drawTable(
    p,
    [
      { label: 'Date', width: 80 },
      { label: 'Type', width: 70 },
      { label: 'Asset', width: w - 310 },
      { label: 'Quantity', width: 60, align: 'right' },
      { label: 'Amount', width: 100, align: 'right' },
    ],
    h.transactions.map((t) => [
      formatLongDate(t.date),
      TRANSACTION_TYPE_LABELS[t.type],
      { text: transactionAsset(t), sub: t.notes ?? undefined },
      quantityText(t.quantity),
      // An amount paid in another currency shows what was paid beneath its value in the report's.
      { text: formatMoney(t.amount, currency), sub: t.currency === currency ? undefined : formatAmountIn(t.amount_original, t.currency) },
    ]),
    { heading: TRANSACTIONS_HEADING },
  );
}

export function drawPortfolioPerformance(p: PdfPages, data: ReportData): void {
  const h = data.history;
  if (!h) return;
  const currency = data.cover.currency;
  p.ensureSpace(300);
  p.section(PORTFOLIO_PERFORMANCE_TITLE);
  p.paragraph(`What the portfolio itself has earned, from the firm's records of its transactions and month-end values. Source: ${h.source}.`, { size: 9 });
  drawValueChart(p, h, currency);
  drawPeriods(p, h, currency);
  drawGains(p, h, currency);
  drawTransactions(p, h, currency);
}

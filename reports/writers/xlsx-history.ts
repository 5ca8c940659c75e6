/**
 * The workbook's history sheets (issue 23), written when the report has a history: History (the
 * value and net flows at each recorded month-end with a native line chart of the value and the
 * cumulative net flows, then the standard periods' returns, then the gains), Transactions (this
 * period's ledger events) and Realised gains (every sale, first in, first out, with the total).
 */
import { TIME_WEIGHTED_METHOD } from '../../src/performance';
import { PERIOD_KEYS, type ReportData, type ReportHistory } from '../report-data';
import { PERIOD_LABELS, TRANSACTION_TYPE_LABELS, cumulativeNetFlows, returnBasis, sentence, transactionAsset } from './history-labels';
import type { XlsxBook } from './xlsx-book';
import type { CellInput } from './xlsx-cells';
import { DATE_FORMAT, LABEL_STYLE, NOTE_STYLE, TOTAL_LABEL_STYLE, moneyFormat } from './xlsx-styles';

/** Quantities as entered: 6 bottles, half a share (0.5); a fixed number of decimals would show "6.00". */
const QUANTITY = { numFmt: 'General' };

/** A return that may be missing: the percentage, or "not available" (the note beside it says why). */
const returnCell = (value: number | null): CellInput => (value === null ? { value: 'not available' } : { value, kind: 'percent' });

function writeHistorySheet(book: XlsxBook, data: ReportData, h: ReportHistory): void {
  const cur = book.sheet('Value history', [18, 18, 18, 22, 18, 18, 18, 18, 60], false);
  book.header(cur, ['Month-end', 'Value', 'Net flows', 'Cumulative net flows']);
  const first = cur.row + 1;
  const cumulative = cumulativeNetFlows(h.value_history);
  h.value_history.forEach((p, i) => {
    cur.add([{ value: p.as_of, kind: 'date' }, { value: p.value, kind: 'money' }, { value: p.net_flows, kind: 'money' }, { value: cumulative[i], kind: 'money' }]);
  });
  const last = cur.row;
  if (h.value_history.length === 0) cur.paragraph('No month-end is recorded yet.', 'D', NOTE_STYLE);
  cur.blank();
  cur.add([{ value: 'Returns over each period', style: book.look.section }]);
  book.header(cur, ['Period', 'From', 'To', 'Returns are', 'Time-weighted', 'Money-weighted', 'Start value', 'End value', 'Net flows', 'Note']);
  for (const key of PERIOD_KEYS) {
    const p = h.performance.periods[key];
    if (p === null) {
      const why = h.performance.unavailable[key];
      cur.add([{ value: PERIOD_LABELS[key] }, { value: 'Not enough history' }, null, null, null, null, null, null, null, { value: why ? sentence(why) : '', style: NOTE_STYLE }]);
      continue;
    }
    cur.add([
      { value: PERIOD_LABELS[key] }, { value: p.from, kind: 'date' }, { value: p.to, kind: 'date' }, { value: returnBasis(p) },
      returnCell(p.twr_percent), returnCell(p.mwr_percent),
      { value: p.start_value, kind: 'money' }, { value: p.end_value, kind: 'money' }, { value: p.net_flows, kind: 'money' },
      { value: p.note ? sentence(p.note) : '', style: NOTE_STYLE },
    ]);
  }
  cur.paragraph(
    `${TIME_WEIGHTED_METHOD} Money-weighted: the internal rate of return of the start value, the flows on their dates and the end value. A period longer than a year is given as a yearly rate.`,
    'I', NOTE_STYLE,
  );
  cur.blank();
  cur.add([{ value: 'Gains', style: book.look.section }]);
  cur.add([{ value: 'Realised gains (every sale)', style: LABEL_STYLE }, { value: h.realised_gain.total, kind: 'money' }]);
  cur.add([{ value: 'Unrealised gain (held today)', style: LABEL_STYLE }, { value: h.unrealised_gain, kind: 'money' }]);
  cur.paragraph(`From ${h.source}.`, 'I', NOTE_STYLE);
  if (h.value_history.length >= 2) {
    book.charts.push({
      sheetNumber: book.sheetNumber('Value history'),
      anchor: { fromCol: 5, fromRow: 0, toCol: 13, toRow: 22 },
      spec: {
        kind: 'line', title: 'Value and cumulative net flows at each month-end', sheetName: 'Value history',
        categoryColumn: 'A', firstRow: first, lastRow: last, dates: h.value_history.map((p) => p.as_of),
        series: [
          { name: 'Value', column: 'B', values: h.value_history.map((p) => p.value), colour: book.theme.primary },
          { name: 'Cumulative net flows', column: 'D', values: cumulative, colour: book.theme.accent },
        ],
        numberFormat: moneyFormat(data.cover.currency).replace(/\.00/g, ''), dateFormat: DATE_FORMAT,
      },
    });
  }
  cur.sheet.commit();
}

function writeTransactionsSheet(book: XlsxBook, data: ReportData, h: ReportHistory): void {
  const cur = book.sheet('Transactions', [12, 14, 44, 34, 10, 18, 16, 10, 36, 24, 18, 10], true);
  book.header(cur, ['Date', 'Type', 'Asset', 'Asset id', 'Quantity', `Amount (${data.cover.currency})`, 'Amount (original)', 'Currency', 'Notes', 'Source', 'Lot', 'Unit']);
  for (const t of h.transactions) {
    cur.add([
      { value: t.date, kind: 'date' }, { value: TRANSACTION_TYPE_LABELS[t.type] }, { value: transactionAsset(t) }, { value: t.asset_id ?? '' },
      { value: t.quantity, style: QUANTITY }, { value: t.amount, kind: 'money' }, { value: t.amount_original, style: { numFmt: '#,##0.00' } },
      { value: t.currency }, { value: t.notes ?? '' }, { value: t.source }, { value: t.lot ?? '' }, { value: t.unit ?? '' },
    ]);
  }
  if (h.transactions.length > 0) book.table(cur, 'Transactions', 'Transactions');
  else cur.paragraph('No transactions this period.', 'J', NOTE_STYLE);
  cur.sheet.commit();
}

function writeRealisedGainsSheet(book: XlsxBook, h: ReportHistory): void {
  const cur = book.sheet('Realised gains', [44, 34, 12, 12, 10, 18, 18, 18, 24, 18, 10], true);
  book.header(cur, ['Asset', 'Asset id', 'Bought', 'Sold', 'Quantity', 'Cost', 'Proceeds', 'Gain', 'Source', 'Lot', 'Unit']);
  for (const l of h.realised_gain.lines) {
    cur.add([
      { value: l.description }, { value: l.asset_id }, { value: l.opened, kind: 'date' }, { value: l.sold, kind: 'date' }, { value: l.quantity, style: QUANTITY },
      { value: l.cost, kind: 'money' }, { value: l.proceeds, kind: 'money' }, { value: l.gain, kind: 'money' }, { value: l.source }, { value: l.lot ?? '' }, { value: l.unit ?? '' },
    ]);
  }
  if (h.realised_gain.lines.length > 0) book.table(cur, 'Realised gains', 'RealisedGains');
  else cur.paragraph('No sales since the first recorded transaction.', 'I', NOTE_STYLE);
  cur.add([{ value: 'Total', style: TOTAL_LABEL_STYLE }, null, null, null, null, null, null, { value: h.realised_gain.total, kind: 'money' }]);
  cur.sheet.commit();
}

/** The history sheets, when the report has a history; nothing otherwise. */
export function writeHistorySheets(book: XlsxBook, data: ReportData): void {
  const h = data.history;
  if (!h) return;
  writeHistorySheet(book, data, h);
  writeTransactionsSheet(book, data, h);
  writeRealisedGainsSheet(book, h);
}

/**
 * The workbook's history sheets (issue 23), written when the report has a history: History (the
 * value and net flows at each recorded month-end with a native line chart of the value and the
 * cumulative net flows, then the standard periods' returns, then the gains), Transactions (this
 * period's ledger events) and Realised gains (every sale, first in, first out, with the total).
 */
import type { MessageKey, Translator } from '../../src/i18n';
import { PERIOD_KEYS, type ReportData, type ReportHistory } from '../report-data';
import { cumulativeNetFlows, periodLabel, returnBasis, transactionAsset, transactionTypeLabel } from './history-labels';
import { reasonSentence, sourceWords } from '../client-words';
import type { XlsxBook } from './xlsx-book';
import type { CellInput } from './xlsx-cells';
import { DATE_FORMAT, LABEL_STYLE, NOTE_STYLE, TOTAL_LABEL_STYLE, moneyFormat } from './xlsx-styles';

/** Quantities as entered: 6 bottles, half a share (0.5); a fixed number of decimals would show "6.00". */
const QUANTITY = { numFmt: 'General' };

/** A return that may be missing: the percentage, or "not available" (the note beside it says why). */
const returnCell = (tr: Translator, value: number | null): CellInput => (value === null ? { value: tr.t('xlsx.not_available') } : { value, kind: 'percent' });

const labels = (tr: Translator, keys: readonly MessageKey[]): string[] => keys.map((k) => tr.t(k));

function writeHistorySheet(book: XlsxBook, data: ReportData, h: ReportHistory, tr: Translator): void {
  const sheetName = tr.t('xlsx.sheet_value_history');
  const cur = book.sheet(sheetName, [18, 18, 18, 22, 18, 18, 18, 18, 60], false);
  book.header(cur, labels(tr, ['columns.month_end', 'columns.value', 'common.net_flows', 'columns.cumulative_net_flows']));
  const first = cur.row + 1;
  const cumulative = cumulativeNetFlows(h.value_history);
  h.value_history.forEach((p, i) => {
    cur.add([{ value: p.as_of, kind: 'date' }, { value: p.value, kind: 'money' }, { value: p.net_flows, kind: 'money' }, { value: cumulative[i], kind: 'money' }]);
  });
  const last = cur.row;
  if (h.value_history.length === 0) cur.paragraph(tr.t('xlsx.no_month_end'), 'D', NOTE_STYLE);
  cur.blank();
  cur.add([{ value: tr.t('xlsx.returns_each_period'), style: book.look.section }]);
  book.header(cur, labels(tr, ['columns.period', 'columns.from', 'columns.to', 'columns.returns_are', 'columns.time_weighted', 'columns.money_weighted', 'columns.start_value', 'columns.end_value', 'common.net_flows', 'columns.note']));
  for (const key of PERIOD_KEYS) {
    const p = h.performance.periods[key];
    if (p === null) {
      const why = h.performance.unavailable[key];
      cur.add([{ value: periodLabel(key, tr) }, { value: tr.t('xlsx.not_enough_history_cell') }, null, null, null, null, null, null, null, { value: why ? reasonSentence(tr, why) : '', style: NOTE_STYLE }]);
      continue;
    }
    cur.add([
      { value: periodLabel(key, tr) }, { value: p.from, kind: 'date' }, { value: p.to, kind: 'date' }, { value: returnBasis(p, tr) },
      returnCell(tr, p.twr_percent), returnCell(tr, p.mwr_percent),
      { value: p.start_value, kind: 'money' }, { value: p.end_value, kind: 'money' }, { value: p.net_flows, kind: 'money' },
      { value: p.note ? reasonSentence(tr, p.note) : '', style: NOTE_STYLE },
    ]);
  }
  cur.paragraph(tr.t('xlsx.history_method'), 'I', NOTE_STYLE);
  cur.blank();
  cur.add([{ value: tr.t('xlsx.gains'), style: book.look.section }]);
  cur.add([{ value: tr.t('xlsx.realised_gains_every_sale'), style: LABEL_STYLE }, { value: h.realised_gain.total, kind: 'money' }]);
  cur.add([{ value: tr.t('xlsx.unrealised_gain_held'), style: LABEL_STYLE }, { value: h.unrealised_gain, kind: 'money' }]);
  cur.paragraph(tr.t('xlsx.from_source', { source: sourceWords(tr, h.source) }), 'I', NOTE_STYLE);
  if (h.value_history.length >= 2) {
    book.charts.push({
      sheetNumber: book.sheetNumber(sheetName),
      anchor: { fromCol: 5, fromRow: 0, toCol: 13, toRow: 22 },
      spec: {
        kind: 'line', title: tr.t('xlsx.chart_value_history'), sheetName,
        categoryColumn: 'A', firstRow: first, lastRow: last, dates: h.value_history.map((p) => p.as_of),
        series: [
          { name: tr.t('columns.value'), column: 'B', values: h.value_history.map((p) => p.value), colour: book.theme.primary },
          { name: tr.t('columns.cumulative_net_flows'), column: 'D', values: cumulative, colour: book.theme.accent },
        ],
        numberFormat: moneyFormat(data.cover.currency).replace(/\.00/g, ''), dateFormat: DATE_FORMAT,
      },
    });
  }
  cur.sheet.commit();
}

function writeTransactionsSheet(book: XlsxBook, data: ReportData, h: ReportHistory, tr: Translator): void {
  const sheetName = tr.t('xlsx.sheet_transactions');
  const cur = book.sheet(sheetName, [12, 14, 44, 34, 10, 18, 16, 10, 36, 24, 18, 10], true);
  book.header(cur, [
    ...labels(tr, ['columns.date', 'columns.type', 'columns.asset', 'columns.asset_id', 'columns.quantity']), tr.t('columns.amount_in', { currency: data.cover.currency }),
    ...labels(tr, ['columns.amount_original', 'columns.currency', 'columns.notes', 'columns.source', 'columns.lot', 'columns.unit']),
  ]);
  for (const t of h.transactions) {
    cur.add([
      { value: t.date, kind: 'date' }, { value: transactionTypeLabel(t.type, tr) }, { value: transactionAsset(t, tr) }, { value: t.asset_id ?? '' },
      { value: t.quantity, style: QUANTITY }, { value: t.amount, kind: 'money' }, { value: t.amount_original, style: { numFmt: '#,##0.00' } },
      { value: t.currency }, { value: t.notes ?? '' }, { value: t.source }, { value: t.lot ?? '' }, { value: t.unit ?? '' },
    ]);
  }
  if (h.transactions.length > 0) book.table(cur, sheetName, 'Transactions');
  else cur.paragraph(tr.t('xlsx.no_transactions'), 'J', NOTE_STYLE);
  cur.sheet.commit();
}

function writeRealisedGainsSheet(book: XlsxBook, h: ReportHistory, tr: Translator): void {
  const sheetName = tr.t('xlsx.sheet_realised_gains');
  const cur = book.sheet(sheetName, [44, 34, 12, 12, 10, 18, 18, 18, 24, 18, 10], true);
  book.header(cur, labels(tr, ['columns.asset', 'columns.asset_id', 'columns.bought', 'columns.sold', 'columns.quantity', 'common.cost', 'columns.proceeds', 'columns.gain', 'columns.source', 'columns.lot', 'columns.unit']));
  for (const l of h.realised_gain.lines) {
    cur.add([
      { value: l.description }, { value: l.asset_id }, { value: l.opened, kind: 'date' }, { value: l.sold, kind: 'date' }, { value: l.quantity, style: QUANTITY },
      { value: l.cost, kind: 'money' }, { value: l.proceeds, kind: 'money' }, { value: l.gain, kind: 'money' }, { value: l.source }, { value: l.lot ?? '' }, { value: l.unit ?? '' },
    ]);
  }
  if (h.realised_gain.lines.length > 0) book.table(cur, sheetName, 'RealisedGains');
  else cur.paragraph(tr.t('xlsx.no_sales'), 'I', NOTE_STYLE);
  cur.add([{ value: tr.t('xlsx.total'), style: TOTAL_LABEL_STYLE }, null, null, null, null, null, null, { value: h.realised_gain.total, kind: 'money' }]);
  cur.sheet.commit();
}

/** The history sheets, when the report has a history; nothing otherwise. */
export function writeHistorySheets(book: XlsxBook, data: ReportData, tr: Translator): void {
  const h = data.history;
  if (!h) return;
  writeHistorySheet(book, data, h, tr);
  writeTransactionsSheet(book, data, h, tr);
  writeRealisedGainsSheet(book, h, tr);
}

/**
 * The portfolio report as an Excel workbook, written with exceljs's streaming WorkbookWriter
 * (rows go to disk as they are added, so 100,000 holdings fit in bounded memory), then given
 * native charts by xlsx-charts.ts. Sheets: Summary, Holdings, Allocation, Performance,
 * Projections, Exit analysis, Errors.
 */
import type { ReportData, Section } from '../report-data';
import { HOLDING_COLUMNS, type ValueKind } from './holding-columns';
import { BENCHMARK_COLOURS, SERIES_COLOURS } from './palette';
import { XlsxBook, columnLetter, writeXlsxBook } from './xlsx-book';
import type { CellInput, SheetCursor } from './xlsx-cells';
import {
  LABEL_STYLE,
  NOTE_STYLE,
  SANDBOX_STYLE,
  SECTION_STYLE,
  TITLE_STYLE,
  TOTAL_LABEL_STYLE,
} from './xlsx-styles';

/** The report's data next to the book it is written into. */
interface ReportBook {
  book: XlsxBook;
  data: ReportData;
}

/** A section left out of the report prints its note instead. */
function omitted(cur: SheetCursor, section: Section<unknown>, lastColumn: string): void {
  if (section.note) cur.paragraph(section.note, lastColumn, NOTE_STYLE);
}

function labelled(label: string, value: unknown, kind: ValueKind, extra?: CellInput): (CellInput | null)[] {
  return [{ value: label, style: LABEL_STYLE }, { value, kind }, extra ?? null];
}

function writeSummary({ book, data }: ReportBook): void {
  const { cover: c, summary: s, concentration } = data;
  const cur = book.sheet('Summary', [34, 22, 18, 60], false);
  cur.add([{ value: `Portfolio report — ${c.portfolio_name}`, style: TITLE_STYLE }], { height: 28 });
  if (c.sandbox) cur.add([{ value: 'SANDBOX DATA — produced against the test sandbox, not the live service.', style: SANDBOX_STYLE }]);
  cur.blank();
  cur.add(labelled('Client', c.client_name, 'text'));
  cur.add(labelled('Portfolio', c.portfolio_name, 'text'));
  if (c.portfolio_id) cur.add(labelled('Portfolio id', c.portfolio_id, 'text'));
  cur.add(labelled('Valued as of', c.as_of, 'date'));
  cur.add(labelled('Base currency', c.currency, 'text'));
  cur.add(labelled('Report id', c.report_id, 'text'));
  cur.add(labelled('Generated at (UTC)', c.generated_at, 'text'));
  if (c.prepared_by) cur.add(labelled('Prepared by', c.prepared_by, 'text'));
  cur.blank();
  cur.add([{ value: 'Key figures', style: SECTION_STYLE }, { value: '', style: SECTION_STYLE }, { value: '', style: SECTION_STYLE }]);
  cur.add(labelled('Current value (mid estimate)', s.current_value, 'money'));
  cur.add(labelled('Value range (low – high)', s.current_value_low, 'money', { value: s.current_value_high, kind: 'money' }));
  cur.add(labelled('Total invested', s.total_invested, 'money'));
  cur.add(labelled('Gain since purchase', s.gain, 'money'));
  cur.add(labelled('Return since purchase', s.total_return_percent, 'percent'));
  cur.add(labelled('Annualised return', s.annualised_return_percent ?? 'not available', s.annualised_return_percent === null ? 'text' : 'percent'));
  if (s.month_on_month) {
    cur.add(labelled(`Change since ${s.month_on_month.previous_as_of}`, s.month_on_month.change, 'money', { value: s.month_on_month.change_percent, kind: 'percent' }));
  } else {
    cur.add(labelled('Month-on-month change', 'no previous report', 'text'));
  }
  cur.add(labelled('Holdings valued', s.asset_count, 'int'));
  cur.add(labelled('Segments', s.segment_count, 'int'));
  cur.add(labelled('Market validated valuations', s.market_validated_count, 'int'));
  cur.add(labelled('Rows with errors', data.errors.length, 'int'));
  cur.blank();
  cur.add([{ value: 'Concentration', style: SECTION_STYLE }, { value: '', style: SECTION_STYLE }, { value: '', style: SECTION_STYLE }]);
  const lp = concentration.largest_position;
  if (lp) cur.add([{ value: 'Largest position', style: LABEL_STYLE }, { value: lp.value, kind: 'money' }, { value: lp.weight_percent, kind: 'percent' }, { value: lp.description }]);
  cur.add(labelled('Top-10 share of value', concentration.top10_share_percent, 'percent'));
  for (const f of concentration.flags) cur.paragraph(`⚠ ${f.message}`, 'D', SANDBOX_STYLE);
  cur.blank();
  cur.add([{ value: 'Method', style: SECTION_STYLE }]);
  for (const note of data.method_notes) cur.paragraph(note, 'D', NOTE_STYLE);
  cur.blank();
  cur.add([{ value: 'Disclaimer', style: SECTION_STYLE }]);
  cur.paragraph(data.disclaimer, 'D', NOTE_STYLE);
  cur.sheet.commit();
}

/** Rows between pauses for the zip stream to drain: exceljs's writer has no backpressure of its own. */
const ROWS_PER_YIELD = 2000;

async function writeHoldings({ book, data }: ReportBook): Promise<void> {
  const cur = book.sheet('Holdings', HOLDING_COLUMNS.map((c) => c.width), true, true);
  book.header(cur, HOLDING_COLUMNS.map((c) => c.label));
  const columns = HOLDING_COLUMNS.map((c) => ({ key: c.key, kind: c.kind }));
  for (const h of data.holdings) {
    cur.add(columns.map((c) => ({ value: h[c.key], kind: c.kind })));
    if (cur.row % ROWS_PER_YIELD === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  cur.sheet.autoFilter = `A1:${columnLetter(HOLDING_COLUMNS.length)}${Math.max(cur.row, 1)}`;
  cur.sheet.commit();
}

function writeAllocation({ book, data }: ReportBook): void {
  const cur = book.sheet('Allocation', [24, 14, 10, 18, 10], true);
  book.header(cur, ['Segment', 'Segment id', 'Holdings', 'Value', 'Share']);
  const first = cur.row + 1;
  for (const a of data.allocation) {
    cur.add([{ value: a.segment_name }, { value: a.segment }, { value: a.asset_count, kind: 'int' }, { value: a.value, kind: 'money' }, { value: a.percentage, kind: 'percent' }]);
  }
  const last = cur.row;
  cur.sheet.autoFilter = `A1:E${last}`;
  cur.add([{ value: 'Total', style: TOTAL_LABEL_STYLE }, null, { value: data.summary.asset_count, kind: 'int' }, { value: data.summary.current_value, kind: 'money' }, { value: 100, kind: 'percent' }]);
  if (last >= first) {
    book.charts.push({
      sheetNumber: book.sheetNumber('Allocation'),
      anchor: { fromCol: 6, fromRow: 1, toCol: 14, toRow: 22 },
      spec: {
        kind: 'pie', title: 'Allocation by segment', sheetName: 'Allocation', seriesName: 'Share of value',
        categoryColumn: 'A', valueColumn: 'E', firstRow: first, lastRow: last,
        categories: data.allocation.map((a) => a.segment_name), values: data.allocation.map((a) => a.percentage / 100),
        numberFormat: '0.0%', colours: [...SERIES_COLOURS],
      },
    });
  }
  cur.sheet.commit();
}

function writePerformance({ book, data }: ReportBook): void {
  const cur = book.sheet('Performance', [26, 18, 22], false);
  const section = data.benchmarks;
  book.header(cur, ['Period', 'Portfolio return', 'vs benchmark (points)']);
  if (!section.included) {
    omitted(cur, section, 'C');
    cur.sheet.commit();
    return;
  }
  for (const p of section.data.periods) {
    cur.add([{ value: p.label }, { value: p.return_percent, kind: 'percent' }, { value: p.vs_benchmark_percent, kind: 'percent' }]);
  }
  cur.blank();
  book.header(cur, ['One-year return', 'Return', '']);
  const first = cur.row + 1;
  const bars = [{ name: 'Portfolio', value: section.data.portfolio_one_year_return_percent }, ...section.data.benchmarks.map((b) => ({ name: b.name, value: b.one_year_return_percent }))];
  for (const b of bars) cur.add([{ value: b.name }, { value: b.value ?? 'not available', kind: b.value === null ? 'text' : 'percent' }]);
  const last = cur.row;
  if (section.note) cur.paragraph(section.note, 'C', NOTE_STYLE);
  book.charts.push({
    sheetNumber: book.sheetNumber('Performance'),
    anchor: { fromCol: 4, fromRow: 1, toCol: 12, toRow: 20 },
    spec: {
      kind: 'bar', title: 'One-year return: portfolio vs benchmarks', sheetName: 'Performance', seriesName: 'One-year return',
      categoryColumn: 'A', valueColumn: 'B', firstRow: first, lastRow: last,
      categories: bars.map((b) => b.name), values: bars.map((b) => (b.value === null ? NaN : b.value / 100)),
      numberFormat: '0.0%', colours: [...BENCHMARK_COLOURS],
    },
  });
  cur.sheet.commit();
}

function writeProjections({ book, data }: ReportBook): void {
  const cur = book.sheet('Projections', [7, 30, 40, 16, 11, 11, 11, 16, 16, 16, 11, 10], true, true);
  book.header(cur, ['Row', 'Asset id', 'Description', 'Current value', 'ROI 12m', 'ROI 24m', 'ROI 36m', 'Conservative 36m', 'Central 36m', 'Optimistic 36m', 'Confidence', 'Validated']);
  const section = data.projections;
  if (!section.included) omitted(cur, section, 'L');
  else {
    for (const p of section.data) {
      cur.add([
        { value: p.row, kind: 'int' }, { value: p.asset_id }, { value: p.description }, { value: p.current_value, kind: 'money' },
        { value: p.expected_roi_12m_percent, kind: 'percent' }, { value: p.expected_roi_24m_percent, kind: 'percent' }, { value: p.expected_roi_36m_percent, kind: 'percent' },
        { value: p.conservative_value_36m, kind: 'money' }, { value: p.central_value_36m, kind: 'money' }, { value: p.optimistic_value_36m, kind: 'money' },
        { value: p.confidence, kind: 'ratio' }, { value: p.market_validated, kind: 'bool' },
      ]);
    }
    if (section.note) cur.paragraph(section.note, 'L', NOTE_STYLE);
  }
  cur.sheet.commit();
}

function writeExit({ book, data }: ReportBook): void {
  const cur = book.sheet('Exit analysis', [7, 30, 40, 16, 13, 13, 16, 24, 11, 16, 11, 24, 16, 12, 11, 10], true, true);
  book.header(cur, ['Row', 'Asset id', 'Description', 'Current value', 'Signal', 'Window', 'Recommendation', 'Primary channel', 'Commission', 'Net (primary)', 'Days', 'Secondary channel', 'Net (secondary)', 'Hold 12m ROI', 'Confidence', 'Validated']);
  const section = data.exit_analysis;
  if (!section.included) omitted(cur, section, 'P');
  else {
    for (const e of section.data) {
      cur.add([
        { value: e.row, kind: 'int' }, { value: e.asset_id }, { value: e.description }, { value: e.current_value, kind: 'money' },
        { value: e.signal }, { value: e.optimal_window }, { value: e.recommendation }, { value: e.primary_channel },
        { value: e.primary_commission_percent, kind: 'percent' }, { value: e.primary_estimated_net, kind: 'money' }, { value: e.primary_timeline_days },
        { value: e.secondary_channel }, { value: e.secondary_estimated_net, kind: 'money' }, { value: e.hold_12m_roi_percent, kind: 'percent' },
        { value: e.confidence, kind: 'ratio' }, { value: e.market_validated, kind: 'bool' },
      ]);
    }
    if (section.note) cur.paragraph(section.note, 'P', NOTE_STYLE);
  }
  cur.sheet.commit();
}

function writeErrors({ book, data }: ReportBook): void {
  const cur = book.sheet('Errors', [8, 20, 110], true);
  book.header(cur, ['Row', 'Field', 'Message']);
  for (const e of data.errors) cur.add([{ value: e.row, kind: 'int' }, { value: e.field }, { value: e.message }]);
  if (data.errors.length === 0) cur.add([null, null, { value: 'No errors: every input row was valued.', style: NOTE_STYLE }]);
  cur.sheet.autoFilter = `A1:C${cur.row}`;
  cur.sheet.commit();
}

export async function writeXlsx(data: ReportData, filePath: string): Promise<void> {
  const c = data.cover;
  const meta = { reference: c.report_id, sandbox: c.sandbox, currency: c.currency, creator: c.prepared_by ?? 'svc-report', created: new Date(c.generated_at) };
  await writeXlsxBook(filePath, meta, async (book) => {
    const w = { book, data };
    writeSummary(w);
    await writeHoldings(w);
    writeAllocation(w);
    writePerformance(w);
    writeProjections(w);
    writeExit(w);
    writeErrors(w);
  });
}

/**
 * The portfolio report as an Excel workbook, written with exceljs's streaming WorkbookWriter
 * (rows go to disk as they are added, so 100,000 holdings fit in bounded memory), then given
 * native charts by xlsx-charts.ts. Sheets: Summary, Holdings, Allocation, (with a history:
 * History, Transactions, Realised gains — xlsx-history.ts), Performance, Projections, Exit
 * analysis, Errors.
 */
import type { ReportData, Section } from '../report-data';
import { holdingColumns, type ValueKind } from './holding-columns';
import { annualisedMissing, figureSentences, netRealisable, validatedShare } from './figure-notes';
import { portfolioPeriod } from './return-period';
import { readable } from './labels';
import { XlsxBook, columnLetter, writeXlsxBook } from './xlsx-book';
import { managerOf } from '../../src/brand';
import { brandedBookMeta } from './xlsx-brand';
import { writeHistorySheets } from './xlsx-history';
import type { CellInput, SheetCursor } from './xlsx-cells';
import { ILLUSTRATIVE_RATES_WARNING } from './data-marks';
import {
  LABEL_STYLE,
  NOTE_STYLE,
  SANDBOX_STYLE,
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

function labelled(label: string, value: unknown, kind: ValueKind, extra?: CellInput, sentence?: string): (CellInput | null)[] {
  return [{ value: label, style: LABEL_STYLE }, { value, kind }, extra ?? null, ...(sentence ? [{ value: sentence, style: NOTE_STYLE }] : [])];
}

/** A figure that may be missing: the number, or "not available" (the sentence beside it says why). */
function maybe(value: number | null, kind: ValueKind): [unknown, ValueKind] {
  return value === null ? ['not available', 'text'] : [value, kind];
}

const isInternal = (data: ReportData) => data.cover.audience === 'internal';
/** The Portfolio cell that leads every row of a consolidated table. */
const portfolioCell = (data: ReportData, name: string): CellInput[] => (isInternal(data) ? [{ value: name }] : []);

function writeSummary({ book, data }: ReportBook): void {
  const { cover: c, summary: s, concentration } = data;
  const cur = book.sheet('Summary', [34, 22, 18, 90], false);
  // The firm's logo at the top right of the Summary sheet, beside the title.
  const logo = data.brand?.logo ?? data.brand?.logoDark;
  if (logo) book.pictures.push({ sheetNumber: book.sheetNumber('Summary'), col: 3, row: 0, heightPt: 36, image: logo, alt: data.brand!.firmName });
  const why = figureSentences(data);
  if (isInternal(data)) {
    cur.add([{ value: `Internal consolidated report — ${c.portfolios.length} portfolios`, style: book.look.title }], { height: 28 });
    cur.add([{ value: 'INTERNAL — for the firm only; not for distribution to clients.', style: SANDBOX_STYLE }]);
  } else {
    cur.add([{ value: `Portfolio report — ${c.portfolio_name}`, style: book.look.title }], { height: 28 });
  }
  if (c.sandbox) cur.add([{ value: 'SANDBOX DATA — produced against the test sandbox, not the live service.', style: SANDBOX_STYLE }]);
  if (c.illustrative_rates) cur.add([{ value: `ILLUSTRATIVE EXCHANGE RATES — ${ILLUSTRATIVE_RATES_WARNING}`, style: SANDBOX_STYLE }]);
  cur.blank();
  if (isInternal(data)) cur.add(labelled('Portfolios', c.portfolios.join(', '), 'text'));
  else {
    cur.add(labelled('Client', c.client_name, 'text'));
    cur.add(labelled('Portfolio', c.portfolio_name, 'text'));
  }
  if (c.portfolio_id) cur.add(labelled('Portfolio id', c.portfolio_id, 'text'));
  cur.add(labelled('Valued as of', c.as_of, 'date'));
  cur.add(labelled('Base currency', c.currency, 'text'));
  cur.add(labelled('Report id', c.report_id, 'text'));
  cur.add(labelled('Generated at (UTC)', c.generated_at, 'text'));
  if (c.prepared_by ?? data.brand) cur.add(labelled('Prepared by', c.prepared_by ?? data.brand!.firmName, 'text'));
  const manager = isInternal(data) ? undefined : managerOf(data.brand, { name: c.portfolio_name, id: c.portfolio_id });
  if (manager) cur.add(labelled('Relationship manager', [manager.name, manager.email, manager.phone].filter(Boolean).join(' · '), 'text'));
  cur.blank();
  cur.add([{ value: 'Key figures', style: book.look.section }, { value: '', style: book.look.section }, { value: '', style: book.look.section }]);
  cur.add(labelled('Current value (mid estimate)', s.current_value, 'money'));
  cur.add(labelled('Value range (low – high)', s.current_value_low, 'money', { value: s.current_value_high, kind: 'money' }));
  cur.add(labelled('Total invested', s.total_invested, 'money'));
  cur.add(labelled('Gain since purchase', s.gain, 'money'));
  cur.add(labelled('Return since purchase', s.total_return_percent, 'percent'));
  const held = portfolioPeriod(s);
  cur.add(labelled('Annualised return', s.annualised_return_percent ?? annualisedMissing(s), s.annualised_return_percent === null ? 'text' : 'percent'));
  // The since-inception returns of the Performance sheet, the same figures, with the period they cover.
  const since = s.returns_since ? ` since ${s.returns_since.from}` : '';
  cur.add(labelled(held.annualised ? `Money-weighted return (IRR, a year)${since}` : `Money-weighted return over ${held.days} days${since} (not annualised)`, ...maybe(s.money_weighted_return_percent, 'percent'), undefined, why.mwr));
  cur.add(labelled(`Time-weighted return${s.time_weighted_return_percent === null ? '' : `${since}${held.annualised ? ' (a year)' : ''}`}`, ...maybe(s.time_weighted_return_percent, 'percent'), undefined, why.twr));
  cur.add(labelled('Gain from exchange rates (FX effect)', s.fx_effect, 'money', undefined, why.fx));
  cur.add(labelled('Gain from the assets (asset effect)', s.asset_effect, 'money', undefined, why.asset));
  if (s.month_on_month) {
    cur.add(labelled(`Value change since the ${s.month_on_month.previous_as_of} month-end`, s.month_on_month.change, 'money', { value: s.month_on_month.change_percent, kind: 'percent' }, why.change));
    cur.add(labelled(`Month's time-weighted return`, ...maybe(s.month_on_month.return_percent, 'percent'), undefined, s.month_on_month.return_percent === null ? `Not available: ${s.returns_unavailable.month_return ?? 'not enough history'}.` : undefined));
  } else {
    cur.add(labelled('Value change since the last month-end', s.returns_unavailable.month_on_month ?? 'no earlier month-end recorded', 'text', undefined, why.change));
  }
  const nrv = netRealisable(data);
  cur.add(labelled('Net realisable value (largest holdings)', ...maybe(nrv?.value ?? null, 'money'), undefined, why.nrv));
  cur.add(labelled('Share of value valued this month', s.coverage.valued_percent, 'percent', undefined, why.coverage));
  cur.add(labelled('Holdings valued', s.asset_count, 'int'));
  cur.add(labelled('Segments', s.segment_count, 'int'));
  cur.add(labelled('Share of value market validated', s.market_validated_percent, 'percent', undefined, validatedShare(s)));
  cur.add(labelled('Market validated valuations', s.market_validated_count, 'int'));
  cur.add(labelled('Rows with errors', data.errors.length, 'int'));
  if (data.analyst_notes.length > 0) cur.add(labelled('Notes for the analyst', data.analyst_notes.length, 'int', undefined, 'See the Errors sheet: technical detail for the analyst, not for the client.'));
  cur.blank();
  cur.add([{ value: 'Concentration', style: book.look.section }, { value: '', style: book.look.section }, { value: '', style: book.look.section }]);
  const lp = concentration.largest_position;
  if (lp) cur.add([{ value: 'Largest position', style: LABEL_STYLE }, { value: lp.value, kind: 'money' }, { value: lp.weight_percent, kind: 'percent' }, { value: lp.description }]);
  cur.add(labelled('Top-10 share of value', concentration.top10_share_percent, 'percent'));
  for (const f of concentration.flags) cur.paragraph(`⚠ ${f.message}`, 'D', SANDBOX_STYLE);
  if (s.validation_warning) cur.paragraph(`⚠ ${s.validation_warning}`, 'D', SANDBOX_STYLE);
  cur.blank();
  cur.add([{ value: 'Method', style: book.look.section }]);
  for (const note of data.method_notes) cur.paragraph(note, 'D', NOTE_STYLE);
  cur.blank();
  cur.add([{ value: 'Disclaimer', style: book.look.section }]);
  cur.paragraph(data.disclaimer, 'D', NOTE_STYLE);
  cur.sheet.commit();
}

/** Rows between pauses for the zip stream to drain: exceljs's writer has no backpressure of its own. */
const ROWS_PER_YIELD = 500;

async function writeHoldings({ book, data }: ReportBook): Promise<void> {
  const all = holdingColumns(data);
  const cur = book.sheet('Holdings', all.map((c) => c.width), true, true);
  // Two costs side by side: the one in the report currency says which.
  book.header(cur, all.map((c) => (c.key === 'purchase_price' ? `${c.label} (${data.cover.currency})` : c.label)));
  // An amount in the purchase currency must not carry the report currency's symbol.
  const plainAmount = { numFmt: '#,##0.00' };
  const columns = all.map((c) => ({ key: c.key, kind: c.kind, display: c.display, style: c.purchaseCurrency ? plainAmount : undefined }));
  for (const h of data.holdings) {
    cur.add(columns.map((c) => {
      const v = h[c.key];
      return { value: c.display && typeof v === 'string' ? c.display(v) : v, kind: c.kind, style: c.style };
    }));
    if (cur.row % ROWS_PER_YIELD === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  // An Excel table (ListObject) with its header row, not just a filter: screen readers and Power Query see a table.
  book.table(cur, 'Holdings', 'Holdings');
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
        numberFormat: '0.0%', colours: [...book.theme.series],
      },
    });
  }
  cur.sheet.commit();
}

function writePerformance({ book, data }: ReportBook): void {
  const cur = book.sheet('Performance', [26, 18, 22], false);
  const section = data.benchmarks;
  book.header(cur, ['Period', "Return of today's holdings", section.included ? `vs ${section.data.benchmark_name} (points)` : 'vs benchmark (points)']);
  if (!section.included) {
    omitted(cur, section, 'C');
    cur.sheet.commit();
    return;
  }
  for (const p of section.data.periods) {
    cur.add([{ value: p.label }, { value: p.return_percent, kind: 'percent' }, { value: p.vs_benchmark_percent, kind: 'points' }]);
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
      numberFormat: '0.0%', colours: [...book.theme.benchmarks],
    },
  });
  cur.sheet.commit();
}

function writeProjections({ book, data }: ReportBook): void {
  const internal = isInternal(data);
  const cur = book.sheet('Projections', [...(internal ? [28] : []), 7, 30, 40, 10, 16, 11, 11, 11, 16, 16, 16, 11, 10], true, true);
  book.header(cur, [...(internal ? ['Portfolio'] : []), 'Row', 'Asset id', 'Description', 'Holdings', 'Current value', 'ROI 12m', 'ROI 24m', 'ROI 36m', 'Conservative 36m', 'Central 36m', 'Optimistic 36m', 'Confidence', 'Validated']);
  const section = data.projections;
  const last = internal ? 'N' : 'M';
  if (!section.included) omitted(cur, section, last);
  else {
    for (const p of section.data) {
      cur.add([
        ...portfolioCell(data, p.portfolio),
        { value: p.row, kind: 'int' }, { value: p.asset_id }, { value: p.description }, { value: p.holding_count, kind: 'int' }, { value: p.current_value, kind: 'money' },
        { value: p.expected_roi_12m_percent, kind: 'percent' }, { value: p.expected_roi_24m_percent, kind: 'percent' }, { value: p.expected_roi_36m_percent, kind: 'percent' },
        { value: p.conservative_value_36m, kind: 'money' }, { value: p.central_value_36m, kind: 'money' }, { value: p.optimistic_value_36m, kind: 'money' },
        { value: p.confidence, kind: 'ratio' }, { value: p.market_validated, kind: 'bool' },
      ]);
    }
    if (section.note) cur.paragraph(section.note, last, NOTE_STYLE);
  }
  cur.sheet.commit();
}

function writeExit({ book, data }: ReportBook): void {
  const internal = isInternal(data);
  const cur = book.sheet('Exit analysis', [...(internal ? [28] : []), 7, 30, 40, 10, 16, 13, 13, 16, 24, 11, 16, 11, 24, 16, 12, 11, 10], true, true);
  book.header(cur, [...(internal ? ['Portfolio'] : []), 'Row', 'Asset id', 'Description', 'Holdings', 'Current value', 'Signal', 'Window', 'Recommendation', 'Primary channel', 'Commission', 'Net (primary)', 'Days', 'Secondary channel', 'Net (secondary)', 'Hold 12m ROI', 'Confidence', 'Validated']);
  const section = data.exit_analysis;
  const last = internal ? 'R' : 'Q';
  if (!section.included) omitted(cur, section, last);
  else {
    for (const e of section.data) {
      cur.add([
        ...portfolioCell(data, e.portfolio),
        { value: e.row, kind: 'int' }, { value: e.asset_id }, { value: e.description }, { value: e.holding_count, kind: 'int' }, { value: e.current_value, kind: 'money' },
        { value: readable(e.signal) }, { value: readable(e.optimal_window) }, { value: readable(e.recommendation) }, { value: e.primary_channel },
        { value: e.primary_commission_percent, kind: 'percent' }, { value: e.primary_estimated_net, kind: 'money' }, { value: e.primary_timeline_days },
        { value: e.secondary_channel }, { value: e.secondary_estimated_net, kind: 'money' }, { value: e.hold_12m_roi_percent, kind: 'percent' },
        { value: e.confidence, kind: 'ratio' }, { value: e.market_validated, kind: 'bool' },
      ]);
    }
    if (section.note) cur.paragraph(section.note, last, NOTE_STYLE);
  }
  cur.sheet.commit();
}

/** Errors (every one: the sheet streams), then the notes for the analyst: tier, scope and service detail the client PDF leaves out. */
async function writeErrors({ book, data }: ReportBook): Promise<void> {
  const internal = isInternal(data);
  const cur = book.sheet('Errors', [...(internal ? [28] : []), 8, 20, 110], true);
  book.header(cur, [...(internal ? ['Portfolio'] : []), 'Row', 'Field', 'Message']);
  const lead = internal ? [null] : [];
  for (const e of data.errors) {
    cur.add([...portfolioCell(data, e.portfolio), { value: e.row, kind: 'int' }, { value: e.field }, { value: e.message }]);
    if (cur.row % ROWS_PER_YIELD === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  if (data.errors.length === 0) cur.add([...lead, null, null, { value: 'No errors: every input row was valued.', style: NOTE_STYLE }]);
  const filtered = cur.row;
  if (data.analyst_notes.length > 0) {
    cur.blank();
    cur.add([...lead, null, null, { value: 'Notes for the analyst (not shown in the client PDF)', style: book.look.section }]);
    for (const n of data.analyst_notes) cur.add([...lead, null, { value: 'note' }, { value: n }]);
  }
  cur.sheet.autoFilter = `A1:${internal ? 'D' : 'C'}${filtered}`;
  cur.sheet.commit();
}

export async function writeXlsx(data: ReportData, filePath: string): Promise<void> {
  const c = data.cover;
  // The internal report says so in every sheet's footer, beside its reference.
  const reference = c.audience === 'internal' ? `${c.report_id} — INTERNAL, not for clients` : c.report_id;
  const meta = brandedBookMeta({
    reference, sandbox: c.sandbox, illustrativeRates: c.illustrative_rates, currency: c.currency, creator: c.prepared_by ?? 'svc-report', created: new Date(c.generated_at),
    title: `${c.portfolio_name} — portfolio report ${c.as_of}`, subject: `Valuation report for ${c.client_name}`, company: c.prepared_by,
    headerLeft: c.client_name, headerRight: `Valued as of ${c.as_of}`,
  }, data.brand);
  await writeXlsxBook(filePath, meta, async (book) => {
    const w = { book, data };
    writeSummary(w);
    await writeHoldings(w);
    writeAllocation(w);
    writeHistorySheets(book, data);
    writePerformance(w);
    writeProjections(w);
    writeExit(w);
    await writeErrors(w);
  });
}

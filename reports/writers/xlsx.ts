/**
 * The portfolio report as an Excel workbook, written with exceljs's streaming WorkbookWriter
 * (rows go to disk as they are added, so 100,000 holdings fit in bounded memory), then given
 * native charts by xlsx-charts.ts. Sheets: Summary, Holdings, (with an insurance review:
 * Insurance — xlsx-insurance.ts), Allocation, (with a history:
 * History, Transactions, Realised gains — xlsx-history.ts), Performance, Projections, Exit
 * analysis, Errors.
 */
import type { ReportData, Section } from '../report-data';
import { holdingColumns, type ValueKind } from './holding-columns';
import { annualisedMissing, figureSentences, netRealisable, validatedShare } from './figure-notes';
import { portfolioPeriod } from './return-period';
import { benchmarkName, benchmarkPeriodLabel, textDate, valueLabel } from './labels';
import { reasonWords, segmentName } from '../client-words';
import { NO_EARLIER_MONTH_END, NOT_ENOUGH_HISTORY } from '../../src/performance';
import { VS_BENCHMARK } from '../build/sections';
import { translator, type MessageKey, type Translator } from '../../src/i18n';
import { XlsxBook, columnLetter, writeXlsxBook } from './xlsx-book';
import { managerIn } from '../../src/brand';
import { brandedBookMeta } from './xlsx-brand';
import { writeHistorySheets } from './xlsx-history';
import { writeInsuranceSheet } from './xlsx-insurance';
import type { CellInput, SheetCursor } from './xlsx-cells';
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
  /** The report's language: every word, sheet name and property (issue 36). */
  tr: Translator;
}

/** A section left out of the report prints its note instead. */
function omitted(cur: SheetCursor, section: Section<unknown>, lastColumn: string): void {
  if (section.note) cur.paragraph(section.note, lastColumn, NOTE_STYLE);
}

function labelled(label: string, value: unknown, kind: ValueKind, extra?: CellInput, sentence?: string): (CellInput | null)[] {
  return [{ value: label, style: LABEL_STYLE }, { value, kind }, extra ?? null, ...(sentence ? [{ value: sentence, style: NOTE_STYLE }] : [])];
}

/** A figure that may be missing: the number, or "not available" (the sentence beside it says why). */
function maybe(tr: Translator, value: number | null, kind: ValueKind): [unknown, ValueKind] {
  return value === null ? [tr.t('xlsx.not_available'), 'text'] : [value, kind];
}

/** A header row's labels from their catalogue keys. */
const labels = (tr: Translator, keys: readonly MessageKey[]): string[] => keys.map((k) => tr.t(k));

const isInternal = (data: ReportData) => data.cover.audience === 'internal';
/** The Portfolio cell that leads every row of a consolidated table. */
const portfolioCell = (data: ReportData, name: string): CellInput[] => (isInternal(data) ? [{ value: name }] : []);

function writeSummary({ book, data, tr }: ReportBook): void {
  const { cover: c, summary: s, concentration } = data;
  const sheetName = tr.t('xlsx.sheet_summary');
  const cur = book.sheet(sheetName, [34, 22, 18, 90], false);
  // The firm's logo at the top right of the Summary sheet, beside the title.
  const logo = data.brand?.logo ?? data.brand?.logoDark;
  if (logo) book.pictures.push({ sheetNumber: book.sheetNumber(sheetName), col: 3, row: 0, heightPt: 36, image: logo, alt: data.brand!.firmName });
  const why = figureSentences(data, tr);
  if (isInternal(data)) {
    cur.add([{ value: tr.t('xlsx.title_internal', { count: c.portfolios.length }), style: book.look.title }], { height: 28 });
    cur.add([{ value: tr.t('xlsx.internal_banner'), style: SANDBOX_STYLE }]);
  } else {
    cur.add([{ value: tr.t('xlsx.title_client', { name: c.portfolio_name }), style: book.look.title }], { height: 28 });
  }
  if (c.sandbox) cur.add([{ value: tr.t('xlsx.sandbox_banner'), style: SANDBOX_STYLE }]);
  if (c.illustrative_rates) cur.add([{ value: tr.t('xlsx.illustrative_banner'), style: SANDBOX_STYLE }]);
  cur.blank();
  if (isInternal(data)) cur.add(labelled(tr.t('xlsx.portfolios'), c.portfolios.join(', '), 'text'));
  else {
    cur.add(labelled(tr.t('xlsx.client'), c.client_name, 'text'));
    cur.add(labelled(tr.t('columns.portfolio'), c.portfolio_name, 'text'));
  }
  if (c.portfolio_id) cur.add(labelled(tr.t('xlsx.portfolio_id'), c.portfolio_id, 'text'));
  cur.add(labelled(tr.t('xlsx.valued_as_of'), c.as_of, 'date'));
  cur.add(labelled(tr.t('xlsx.base_currency'), c.currency, 'text'));
  cur.add(labelled(tr.t('xlsx.report_id'), c.report_id, 'text'));
  cur.add(labelled(tr.t('xlsx.generated_at'), c.generated_at, 'text'));
  if (c.prepared_by ?? data.brand) cur.add(labelled(tr.t('xlsx.prepared_by'), c.prepared_by ?? data.brand!.firmName, 'text'));
  const manager = isInternal(data) ? undefined : managerIn(data.brand, { name: c.portfolio_name, id: c.portfolio_id }, tr.lang, { portfolio: c.portfolio_name, warn: (line) => process.emitWarning(line, 'ReportWarning') });
  // Their own title in the client's language (the brand's managers file), else the house's words.
  if (manager) cur.add(labelled(manager.title ?? tr.t('xlsx.relationship_manager'), [manager.name, manager.email, manager.phone].filter(Boolean).join(' · '), 'text'));
  cur.blank();
  cur.add([{ value: tr.t('xlsx.key_figures'), style: book.look.section }, { value: '', style: book.look.section }, { value: '', style: book.look.section }]);
  cur.add(labelled(tr.t('xlsx.current_value_mid'), s.current_value, 'money'));
  cur.add(labelled(tr.t('xlsx.value_range'), s.current_value_low, 'money', { value: s.current_value_high, kind: 'money' }));
  cur.add(labelled(tr.t('xlsx.total_invested'), s.total_invested, 'money'));
  cur.add(labelled(tr.t('xlsx.gain_since_purchase'), s.gain, 'money'));
  cur.add(labelled(tr.t('xlsx.return_since_purchase'), s.total_return_percent, 'percent'));
  const held = portfolioPeriod(s);
  cur.add(labelled(tr.t('xlsx.annualised_return'), s.annualised_return_percent ?? annualisedMissing(s, tr), s.annualised_return_percent === null ? 'text' : 'percent'));
  // The since-inception returns of the Performance sheet, the same figures, with the period they cover.
  const since = s.returns_since ? textDate(tr, s.returns_since.from, 'shortDate') : 'none';
  cur.add(labelled(held.annualised ? tr.t('xlsx.mwr_year', { since }) : tr.t('xlsx.mwr_days', { since, days: held.days }), ...maybe(tr, s.money_weighted_return_percent, 'percent'), undefined, why.mwr));
  const twrForm = s.time_weighted_return_percent === null ? 'plain' : s.returns_since ? (held.annualised ? 'since_year' : 'since') : held.annualised ? 'year' : 'plain';
  cur.add(labelled(tr.t('xlsx.twr_label', { form: twrForm, since }), ...maybe(tr, s.time_weighted_return_percent, 'percent'), undefined, why.twr));
  cur.add(labelled(tr.t('xlsx.fx_effect'), s.fx_effect, 'money', undefined, why.fx));
  cur.add(labelled(tr.t('xlsx.asset_effect'), s.asset_effect, 'money', undefined, why.asset));
  if (s.month_on_month) {
    cur.add(labelled(tr.t('xlsx.change_since', { date: textDate(tr, s.month_on_month.previous_as_of, 'shortDate') }), s.month_on_month.change, 'money', { value: s.month_on_month.change_percent, kind: 'percent' }, why.change));
    cur.add(labelled(tr.t('xlsx.month_twr'), ...maybe(tr, s.month_on_month.return_percent, 'percent'), undefined, s.month_on_month.return_percent === null ? tr.t('xlsx.not_available_because', { reason: reasonWords(tr, s.returns_unavailable.month_return ?? NOT_ENOUGH_HISTORY) }) : undefined));
  } else {
    cur.add(labelled(tr.t('xlsx.change_since_last'), reasonWords(tr, s.returns_unavailable.month_on_month ?? NO_EARLIER_MONTH_END), 'text', undefined, why.change));
  }
  const nrv = netRealisable(data);
  cur.add(labelled(tr.t('xlsx.nrv'), ...maybe(tr, nrv?.value ?? null, 'money'), undefined, why.nrv));
  cur.add(labelled(tr.t('xlsx.coverage'), s.coverage.valued_percent, 'percent', undefined, why.coverage));
  cur.add(labelled(tr.t('xlsx.holdings_valued'), s.asset_count, 'int'));
  cur.add(labelled(tr.t('xlsx.segments'), s.segment_count, 'int'));
  cur.add(labelled(tr.t('xlsx.validated_share'), s.market_validated_percent, 'percent', undefined, validatedShare(s, tr)));
  cur.add(labelled(tr.t('xlsx.validated_count'), s.market_validated_count, 'int'));
  cur.add(labelled(tr.t('xlsx.rows_with_errors'), data.errors.length, 'int'));
  if (data.analyst_notes.length > 0) cur.add(labelled(tr.t('xlsx.analyst_notes'), data.analyst_notes.length, 'int', undefined, tr.t('xlsx.see_errors_sheet', { sheet: tr.t('xlsx.sheet_errors') })));
  cur.blank();
  cur.add([{ value: tr.t('xlsx.concentration'), style: book.look.section }, { value: '', style: book.look.section }, { value: '', style: book.look.section }]);
  const lp = concentration.largest_position;
  if (lp) cur.add([{ value: tr.t('xlsx.largest_position'), style: LABEL_STYLE }, { value: lp.value, kind: 'money' }, { value: lp.weight_percent, kind: 'percent' }, { value: lp.description }]);
  cur.add(labelled(tr.t('xlsx.top10_share'), concentration.top10_share_percent, 'percent'));
  for (const f of concentration.flags) cur.paragraph(`⚠ ${f.message}`, 'D', SANDBOX_STYLE);
  if (s.validation_warning) cur.paragraph(`⚠ ${s.validation_warning}`, 'D', SANDBOX_STYLE);
  cur.blank();
  cur.add([{ value: tr.t('xlsx.method'), style: book.look.section }]);
  for (const note of data.method_notes) cur.paragraph(note, 'D', NOTE_STYLE);
  cur.blank();
  cur.add([{ value: tr.t('xlsx.disclaimer'), style: book.look.section }]);
  cur.paragraph(data.disclaimer, 'D', NOTE_STYLE);
  cur.sheet.commit();
}

/** Rows between pauses for the zip stream to drain: exceljs's writer has no backpressure of its own. */
const ROWS_PER_YIELD = 500;

async function writeHoldings({ book, data, tr }: ReportBook): Promise<void> {
  const all = holdingColumns(data, tr);
  const sheetName = tr.t('xlsx.sheet_holdings');
  const cur = book.sheet(sheetName, all.map((c) => c.width), true, true);
  // Two costs side by side: the one in the report currency says which.
  book.header(cur, all.map((c) => (c.key === 'purchase_price' ? tr.t('columns.cost_in', { currency: data.cover.currency }) : c.label)));
  // An amount in the purchase currency must not carry the report currency's symbol.
  const plainAmount = { numFmt: '#,##0.00' };
  const columns = all.map((c) => ({ key: c.key, kind: c.kind, display: c.display, style: c.purchaseCurrency ? plainAmount : undefined }));
  for (const h of data.holdings) {
    cur.add(columns.map((c) => {
      const v = h[c.key];
      return { value: c.display && typeof v === 'string' ? c.display(v, tr) : v, kind: c.kind, style: c.style };
    }));
    if (cur.row % ROWS_PER_YIELD === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  // An Excel table (ListObject) with its header row, not just a filter: screen readers and Power Query see a table.
  book.table(cur, sheetName, 'Holdings');
  cur.sheet.commit();
}

function writeAllocation({ book, data, tr }: ReportBook): void {
  const sheetName = tr.t('xlsx.sheet_allocation');
  const cur = book.sheet(sheetName, [24, 14, 10, 18, 10], true);
  book.header(cur, labels(tr, ['columns.segment', 'columns.segment_id', 'columns.holdings', 'columns.value', 'columns.share']));
  const first = cur.row + 1;
  for (const a of data.allocation) {
    cur.add([{ value: segmentName(tr, a.segment) }, { value: a.segment }, { value: a.asset_count, kind: 'int' }, { value: a.value, kind: 'money' }, { value: a.percentage, kind: 'percent' }]);
  }
  const last = cur.row;
  cur.sheet.autoFilter = `A1:E${last}`;
  cur.add([{ value: tr.t('xlsx.total'), style: TOTAL_LABEL_STYLE }, null, { value: data.summary.asset_count, kind: 'int' }, { value: data.summary.current_value, kind: 'money' }, { value: 100, kind: 'percent' }]);
  if (last >= first) {
    book.charts.push({
      sheetNumber: book.sheetNumber(sheetName),
      anchor: { fromCol: 6, fromRow: 1, toCol: 14, toRow: 22 },
      spec: {
        kind: 'pie', title: tr.t('xlsx.chart_allocation'), sheetName, seriesName: tr.t('xlsx.share_of_value'),
        categoryColumn: 'A', valueColumn: 'E', firstRow: first, lastRow: last,
        categories: data.allocation.map((a) => segmentName(tr, a.segment)), values: data.allocation.map((a) => a.percentage / 100),
        numberFormat: '0.0%', colours: [...book.theme.series],
      },
    });
  }
  cur.sheet.commit();
}

function writePerformance({ book, data, tr }: ReportBook): void {
  const sheetName = tr.t('xlsx.sheet_performance');
  const cur = book.sheet(sheetName, [26, 18, 22], false);
  const section = data.benchmarks;
  book.header(cur, [tr.t('columns.period'), tr.t('xlsx.return_of_holdings'), section.included ? tr.t('xlsx.vs_benchmark_named', { benchmark: benchmarkName(VS_BENCHMARK, section.data.benchmark_name, tr) }) : tr.t('xlsx.vs_benchmark')]);
  if (!section.included) {
    omitted(cur, section, 'C');
    cur.sheet.commit();
    return;
  }
  for (const p of section.data.periods) {
    cur.add([{ value: benchmarkPeriodLabel(p.period, p.label, tr) }, { value: p.return_percent, kind: 'percent' }, { value: p.vs_benchmark_percent, kind: 'points' }]);
  }
  cur.blank();
  book.header(cur, [tr.t('xlsx.one_year_return'), tr.t('columns.return'), '']);
  const first = cur.row + 1;
  const bars = [{ name: tr.t('columns.portfolio'), value: section.data.portfolio_one_year_return_percent }, ...section.data.benchmarks.map((b) => ({ name: benchmarkName(b.id, b.name, tr), value: b.one_year_return_percent }))];
  for (const b of bars) cur.add([{ value: b.name }, { value: b.value ?? tr.t('xlsx.not_available'), kind: b.value === null ? 'text' : 'percent' }]);
  const last = cur.row;
  if (section.note) cur.paragraph(section.note, 'C', NOTE_STYLE);
  book.charts.push({
    sheetNumber: book.sheetNumber(sheetName),
    anchor: { fromCol: 4, fromRow: 1, toCol: 12, toRow: 20 },
    spec: {
      kind: 'bar', title: tr.t('xlsx.chart_one_year'), sheetName, seriesName: tr.t('xlsx.one_year_return'),
      categoryColumn: 'A', valueColumn: 'B', firstRow: first, lastRow: last,
      categories: bars.map((b) => b.name), values: bars.map((b) => (b.value === null ? NaN : b.value / 100)),
      numberFormat: '0.0%', colours: [...book.theme.benchmarks],
    },
  });
  cur.sheet.commit();
}

function writeProjections({ book, data, tr }: ReportBook): void {
  const internal = isInternal(data);
  const cur = book.sheet(tr.t('xlsx.sheet_projections'), [...(internal ? [28] : []), 7, 30, 40, 10, 16, 11, 11, 11, 16, 16, 16, 11, 10], true, true);
  book.header(cur, labels(tr, [...(internal ? ['columns.portfolio' as const] : []), 'columns.row', 'columns.asset_id', 'columns.description', 'columns.holdings', 'columns.current_value', 'columns.roi_12m', 'columns.roi_24m', 'columns.roi_36m', 'columns.conservative_36m', 'columns.central_36m', 'columns.optimistic_36m', 'columns.confidence', 'columns.validated']));
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

function writeExit({ book, data, tr }: ReportBook): void {
  const internal = isInternal(data);
  const cur = book.sheet(tr.t('xlsx.sheet_exit'), [...(internal ? [28] : []), 7, 30, 40, 10, 16, 13, 13, 16, 24, 11, 16, 11, 24, 16, 12, 11, 10], true, true);
  book.header(cur, labels(tr, [
    ...(internal ? ['columns.portfolio' as const] : []), 'columns.row', 'columns.asset_id', 'columns.description', 'columns.holdings', 'columns.current_value', 'columns.signal', 'columns.window',
    'columns.recommendation', 'columns.primary_channel', 'columns.commission', 'columns.net_primary', 'columns.days', 'columns.secondary_channel', 'columns.net_secondary', 'columns.hold_12m_roi', 'columns.confidence', 'columns.validated',
  ]));
  const section = data.exit_analysis;
  const last = internal ? 'R' : 'Q';
  if (!section.included) omitted(cur, section, last);
  else {
    for (const e of section.data) {
      cur.add([
        ...portfolioCell(data, e.portfolio),
        { value: e.row, kind: 'int' }, { value: e.asset_id }, { value: e.description }, { value: e.holding_count, kind: 'int' }, { value: e.current_value, kind: 'money' },
        { value: valueLabel(e.signal, tr) }, { value: valueLabel(e.optimal_window, tr) }, { value: valueLabel(e.recommendation, tr) }, { value: e.primary_channel },
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
async function writeErrors({ book, data, tr }: ReportBook): Promise<void> {
  const internal = isInternal(data);
  const cur = book.sheet(tr.t('xlsx.sheet_errors'), [...(internal ? [28] : []), 8, 20, 110], true);
  book.header(cur, labels(tr, [...(internal ? ['columns.portfolio' as const] : []), 'columns.row', 'columns.field', 'columns.message']));
  const lead = internal ? [null] : [];
  for (const e of data.errors) {
    cur.add([...portfolioCell(data, e.portfolio), { value: e.row, kind: 'int' }, { value: e.field }, { value: e.message }]);
    if (cur.row % ROWS_PER_YIELD === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  if (data.errors.length === 0) cur.add([...lead, null, null, { value: tr.t('xlsx.no_errors'), style: NOTE_STYLE }]);
  const filtered = cur.row;
  if (data.analyst_notes.length > 0) {
    cur.blank();
    cur.add([...lead, null, null, { value: tr.t('xlsx.analyst_notes_heading'), style: book.look.section }]);
    for (const n of data.analyst_notes) cur.add([...lead, null, { value: tr.t('xlsx.note_row') }, { value: n }]);
  }
  cur.sheet.autoFilter = `A1:${internal ? 'D' : 'C'}${filtered}`;
  cur.sheet.commit();
}

export async function writeXlsx(data: ReportData, filePath: string): Promise<void> {
  const c = data.cover;
  const tr = translator(data.language ?? 'en');
  // The internal report says so in every sheet's footer, beside its reference.
  const reference = c.audience === 'internal' ? tr.t('xlsx.internal_reference', { id: c.report_id }) : c.report_id;
  const meta = brandedBookMeta({
    reference, sandbox: c.sandbox, illustrativeRates: c.illustrative_rates, currency: c.currency, creator: c.prepared_by ?? 'svc-report', created: new Date(c.generated_at),
    title: tr.t('xlsx.doc_title', { portfolio: c.portfolio_name, date: textDate(tr, c.as_of) }), subject: tr.t('xlsx.doc_subject', { client: c.client_name }), company: c.prepared_by,
    keywords: tr.t('xlsx.doc_keywords', { date: tr.month(c.as_of.slice(0, 7)) }),
    headerLeft: c.client_name, headerRight: tr.t('common.valued_as_of', { date: textDate(tr, c.as_of) }), tr,
  }, data.brand);
  await writeXlsxBook(filePath, meta, async (book) => {
    const w = { book, data, tr };
    writeSummary(w);
    await writeHoldings(w);
    writeInsuranceSheet(book, data, tr);
    writeAllocation(w);
    writeHistorySheets(book, data, tr);
    writePerformance(w);
    writeProjections(w);
    writeExit(w);
    await writeErrors(w);
  });
}

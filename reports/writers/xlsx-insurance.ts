/**
 * The workbook's Insurance sheet (issue 37), when the report has an insurance review: the
 * review's items (largest shortfall first) as an Excel table whose gap and status are formulas
 * over the row's cells and the review's parameters (tolerance, over-insured factor) held in cells
 * below it, then the totals per status and the total shortfall as formulas over the rows. Change
 * an insured value or the tolerance and the sheet recomputes; as written, each formula's cached
 * result is the review's own figure (src/insurance), so a reader that does not recompute shows
 * the same numbers as the PDF and the JSON.
 */
import { INSURANCE_STATUSES, type InsuranceReview, type InsuranceStatus } from '../../src/insurance';
import type { Translator } from '../../src/i18n';
import type { ReportData } from '../report-data';
import { basisLabel, statusLabel } from './insurance-words';
import type { XlsxBook } from './xlsx-book';
import type { CellInput, SheetCursor } from './xlsx-cells';
import { LABEL_STYLE, TOTAL_LABEL_STYLE } from './xlsx-styles';

/** The items' columns, in order; the formulas below name them by these letters. */
const COL = { insured: 'C', mid: 'D', high: 'E', replacement: 'F', gap: 'G', status: 'H' } as const;

/** An absolute reference to a cell of column A (the parameters and the status names). */
const fixed = (column: string, row: number) => `$${column}$${row}`;

/**
 * Where the cells the formulas read are, from the number of items: the items from row 2, a
 * blank row, the parameters, a blank row, then the totals (a header and one row per status).
 */
function layout(itemCount: number) {
  const lastItem = 1 + itemCount;
  const parameters = lastItem + 2;
  const tolerance = parameters + 1;
  const factor = parameters + 2;
  const totalsHeader = parameters + 6;
  const statusRow = Object.fromEntries(INSURANCE_STATUSES.map((s, i) => [s, totalsHeader + 1 + i])) as Record<InsuranceStatus, number>;
  return { lastItem, parameters, tolerance, factor, totalsHeader, statusRow, total: totalsHeader + 1 + INSURANCE_STATUSES.length };
}

type Layout = ReturnType<typeof layout>;

export function writeInsuranceSheet(book: XlsxBook, data: ReportData, tr: Translator): void {
  const review = data.insurance;
  if (!review) return;
  const cur = data.cover.currency;
  const at = layout(review.items.length);
  const sheetName = tr.t('insurance.sheet');
  const sheet = book.sheet(sheetName, [30, 40, 18, 18, 18, 18, 18, 16, 22, 18, 14, 18, 14, 18, 10], true, true);
  book.header(sheet, [
    tr.t('insurance.asset_id'), tr.t('insurance.holding'), tr.t('insurance.insured_value_in', { currency: cur }), tr.t('insurance.mid_in', { currency: cur }), tr.t('insurance.high_in', { currency: cur }),
    tr.t('insurance.replacement_value_in', { currency: cur }), tr.t('insurance.gap_in', { currency: cur }), tr.t('insurance.status'), tr.t('insurance.insurer'), tr.t('insurance.policy'),
    tr.t('insurance.renewal_date'), tr.t('insurance.serial'), tr.t('insurance.under_insured_since'), tr.t('insurance.insured_original'), tr.t('insurance.insured_currency'),
  ]);
  const status = (s: InsuranceStatus) => fixed('A', at.statusRow[s]);
  for (const item of review.items) {
    const r = sheet.row + 1;
    const [insured, replacement, high] = [`${COL.insured}${r}`, `${COL.replacement}${r}`, `${COL.high}${r}`];
    // The review's rules as formulas (src/insurance/review.ts): thresholds and the gap to the cent.
    const statusFormula =
      `IF(${insured}="",${status('not-insured')},` +
      `IF(${insured}<ROUND(${replacement}*(1-${fixed('C', at.tolerance)}),2),${status('under-insured')},` +
      `IF(${insured}>ROUND(${fixed('C', at.factor)}*${high},2),${status('over-insured')},${status('covered')})))`;
    sheet.add([
      { value: item.asset_id },
      { value: item.description },
      { value: item.insured_value, kind: 'money' },
      { value: item.mid, kind: 'money' },
      { value: item.high, kind: 'money' },
      { value: item.replacement_value, kind: 'money' },
      { value: item.gap ?? '', kind: 'money', formula: `IF(${insured}="","",ROUND(${replacement}-${insured},2))` },
      { value: statusLabel(item.status, tr), formula: statusFormula },
      { value: item.insurer ?? '' },
      { value: item.policy ?? '' },
      { value: item.renewal_date, kind: 'date' },
      { value: item.serial ?? '' },
      { value: item.under_insured_since, kind: 'date' },
      // The amount as the policy states it, in its own currency: not an amount in the report's.
      { value: item.insured_value_original?.amount, style: { numFmt: '#,##0.00' } },
      { value: item.insured_value_original?.currency ?? '' },
    ]);
  }
  if (review.items.length > 0) book.table(sheet, sheetName, 'Insurance');
  sheet.blank();
  writeParameters(book, sheet, review, at, tr);
  sheet.blank();
  writeTotals(book, sheet, review, at, tr);
  sheet.sheet.commit();
}

/** The review's parameters in column C, where the items' status formulas read the tolerance and the factor. */
function writeParameters(book: XlsxBook, sheet: SheetCursor, review: InsuranceReview, at: Layout, tr: Translator): void {
  const section = { value: tr.t('insurance.parameters'), style: book.look.section };
  expectRow(sheet.add([section, { value: '', style: book.look.section }, { value: '', style: book.look.section }]), at.parameters);
  const label = (text: string): (CellInput | null)[] => [{ value: text, style: LABEL_STYLE }, null];
  expectRow(sheet.add([...label(tr.t('insurance.tolerance_label')), { value: review.tolerance * 100, kind: 'percent' }]), at.tolerance);
  expectRow(sheet.add([...label(tr.t('insurance.factor_label')), { value: review.over_insured_factor, kind: 'ratio' }]), at.factor);
  sheet.add([...label(tr.t('insurance.basis_label')), { value: basisLabel(review, tr) }]);
  sheet.add([...label(tr.t('insurance.window_label')), { value: review.renewal_window_days, kind: 'int' }]);
}

/** The formulas were written pointing at `planned`: a row written elsewhere would make them read the wrong cell. */
function expectRow(written: number, planned: number): void {
  if (written !== planned) throw new Error(`internal: the Insurance sheet's row ${planned} was written at ${written}`);
}

function writeTotals(book: XlsxBook, sheet: SheetCursor, review: InsuranceReview, at: Layout, tr: Translator): void {
  const t = review.totals;
  const range = (column: string) => `$${column}$2:$${column}$${Math.max(2, at.lastItem)}`;
  book.header(sheet, [tr.t('insurance.status'), tr.t('insurance.items'), tr.t('insurance.insured_value'), tr.t('insurance.replacement_value')]);
  expectRow(sheet.row, at.totalsHeader);
  for (const s of INSURANCE_STATUSES) {
    const r = sheet.row + 1;
    // Column A holds the status names the items' status formulas return: the totals count by them.
    sheet.add([
      { value: statusLabel(s, tr) },
      { value: t.by_status[s].count, kind: 'int', formula: `COUNTIF(${range(COL.status)},A${r})` },
      { value: t.by_status[s].insured_value, kind: 'money', formula: `ROUND(SUMIF(${range(COL.status)},A${r},${range(COL.insured)}),2)` },
      { value: t.by_status[s].replacement_value, kind: 'money', formula: `ROUND(SUMIF(${range(COL.status)},A${r},${range(COL.replacement)}),2)` },
    ]);
  }
  const first = at.statusRow[INSURANCE_STATUSES[0]];
  const last = at.statusRow[INSURANCE_STATUSES[INSURANCE_STATUSES.length - 1]!];
  const count = INSURANCE_STATUSES.reduce((n, s) => n + t.by_status[s].count, 0);
  sheet.add([
    { value: tr.t('insurance.total'), style: TOTAL_LABEL_STYLE },
    { value: count, kind: 'int', formula: `SUM(B${first}:B${last})` },
    { value: t.insured_value, kind: 'money', formula: `ROUND(SUM(${range(COL.insured)}),2)` },
    { value: t.replacement_value, kind: 'money', formula: `ROUND(SUM(${range(COL.replacement)}),2)` },
  ]);
  sheet.add([
    { value: tr.t('insurance.total_shortfall'), style: TOTAL_LABEL_STYLE },
    null,
    null,
    { value: t.total_shortfall, kind: 'money', formula: `ROUND(SUMIFS(${range(COL.gap)},${range(COL.status)},${fixed('A', at.statusRow['under-insured'])},${range(COL.gap)},">0"),2)` },
  ]);
}

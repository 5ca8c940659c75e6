/// <reference types="office-js" />
import type { Currency } from '../../../src/wire';
import { moneyFormat } from '../shared/cell-values';
import { describeRowProblem, holdingMultiplier, readHoldingsGrid, requestForRow } from '../shared/holdings';
import type { AddinRuntime } from '../shared/runtime';
import { HOLDINGS_RESULT_HEADERS } from '../functions/holdings-table';
import { addinTranslator } from '../shared/display-language';

export const RESULT_HEADERS = [...HOLDINGS_RESULT_HEADERS, 'status'] as const;

export interface ValueSelectionResult {
  valued: number;
  failed: number;
  /** Where the results were written, e.g. "Holdings!H1:O21". */
  written: string;
}

export class SelectionError extends Error {
  override name = 'SelectionError';
}

export interface Selection {
  values: unknown[][];
  rowIndex: number;
  columnIndex: number;
  rowCount: number;
  columnCount: number;
  sheet: string;
}

/** The used part of the selection (selecting whole columns must not read a million empty rows). */
export async function readSelection(): Promise<Selection> {
  return Excel.run(async (ctx) => {
    const range = ctx.workbook.getSelectedRange().getUsedRangeOrNullObject(true);
    range.load(['isNullObject', 'values', 'rowIndex', 'columnIndex', 'rowCount', 'columnCount']);
    range.worksheet.load('name');
    await ctx.sync();
    if (range.isNullObject) throw new SelectionError(addinTranslator().t('addin.selection_empty'));
    return { values: range.values as unknown[][], rowIndex: range.rowIndex, columnIndex: range.columnIndex, rowCount: range.rowCount, columnCount: range.columnCount, sheet: range.worksheet.name };
  });
}

type Cell = string | number;

/**
 * "Value selection": reads the selected holdings table (header row first, the report job's
 * columns), values every holding through the shared queue (batches of 50, the same cache
 * as the cells), and writes the results beside the table as numbers with number formats:
 * the holding's low, mid and high (all units) in its currency, confidence as a
 * percentage, the score, and a status naming any row that could not be valued.
 */
export async function valueSelection(runtime: AddinRuntime, currency: Currency, onProgress: (done: number, total: number) => void, signal: AbortSignal): Promise<ValueSelectionResult> {
  const selection = await readSelection();
  if (selection.rowCount < 2) throw new SelectionError(addinTranslator().t('addin.selection_too_small'));
  const { rows, recognised, columnProblem } = readHoldingsGrid(selection.values, { sheet: selection.sheet, firstRow: selection.rowIndex + 1 });
  if (!recognised) {
    throw new SelectionError(addinTranslator().t('addin.selection_no_header'));
  }
  if (columnProblem) throw new SelectionError(columnProblem);

  const width = RESULT_HEADERS.length;
  const values: Cell[][] = [[...RESULT_HEADERS], ...Array.from({ length: selection.rowCount - 1 }, () => Array<Cell>(width).fill(''))];
  const formats: string[][] = values.map(() => Array<string>(width).fill('General'));
  let done = 0;
  let failed = 0;
  onProgress(0, rows.length);
  await Promise.all(
    rows.map(async (r) => {
      const i = r.row - selection.rowIndex - 1;
      try {
        if ('problems' in r) throw new Error(describeRowProblem(r.row, r.problems));
        const request = requestForRow(r);
        const item = await runtime.valuation(request, currency, { signal, preview: false });
        const v = item.estimated_value;
        const q = holdingMultiplier(request, r.holding);
        values[i] = [item.asset_id, (v.low ?? v.mid) * q, v.mid * q, (v.high ?? v.mid) * q, v.currency, item.confidence, item.service_score, addinTranslator().t('addin.holding_valued')];
        const money = moneyFormat(v.currency);
        formats[i] = ['@', money, money, money, '@', '0%', '0', '@'];
      } catch (err) {
        failed++;
        values[i] = ['holding' in r ? r.holding.assetId : '', '', '', '', '', '', '', err instanceof Error ? err.message : String(err)];
      } finally {
        onProgress(++done, rows.length);
      }
    }),
  );

  const written = await Excel.run(async (ctx) => {
    const sheet = ctx.workbook.worksheets.getItem(selection.sheet);
    const target = sheet.getRangeByIndexes(selection.rowIndex, selection.columnIndex + selection.columnCount, selection.rowCount, width);
    target.numberFormat = formats;
    target.values = values;
    target.format.autofitColumns();
    target.load('address');
    await ctx.sync();
    return target.address;
  });
  return { valued: rows.length - failed, failed, written };
}

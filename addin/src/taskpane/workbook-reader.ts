/// <reference types="office-js" />
import type { SheetModel } from './workbook-model';

/** Whether this Excel has an ExcelApi requirement set (false where Office cannot say). */
export function hasExcelApi(version: string): boolean {
  try {
    return Office.context.requirements.isSetSupported('ExcelApi', version);
  } catch {
    return false;
  }
}

/** Whether Excel can give cell values as JSON (formatted numbers, cards): ExcelApi 1.16. */
export const hasValuesAsJson = () => hasExcelApi('1.16');

/**
 * Every worksheet's used range as the sheet model (formulas, values, the cells' own number
 * formats, and valuesAsJson where Excel has it): one round trip for the sheet list, one for all
 * the ranges.
 */
export async function readWorkbook(ctx: Excel.RequestContext, withJson = hasValuesAsJson()): Promise<SheetModel[]> {
  const sheets = ctx.workbook.worksheets;
  sheets.load('items/name');
  await ctx.sync();
  const props = ['isNullObject', 'rowIndex', 'columnIndex', 'formulas', 'values', 'numberFormat', ...(withJson ? ['valuesAsJson'] : [])];
  const used = sheets.items.map((ws) => ({ name: ws.name, range: ws.getUsedRangeOrNullObject().load(props) }));
  await ctx.sync();
  return used
    .filter((u) => !u.range.isNullObject)
    .map(({ name, range }) => ({
      name,
      rowIndex: range.rowIndex,
      columnIndex: range.columnIndex,
      formulas: range.formulas as unknown[][],
      values: range.values as unknown[][],
      numberFormat: range.numberFormat as unknown[][],
      ...(withJson ? { cellValues: range.valuesAsJson as unknown[][] } : {}),
    }));
}

import ExcelJS from 'exceljs';
import { checkRowCount, checkXlsxUnpackedSize } from '../limits';
import { InputError } from '../types';
import { tableFromGrid, type RawTable } from './table';
import { HOLDINGS_VOCABULARY, type Vocabulary } from '../columns';

/**
 * An Excel holdings workbook. One sheet: the file is one portfolio. Several sheets that each
 * look like a holdings table (a segment or asset_id header; a transactions table: a type header): one portfolio per sheet, named
 * after the sheet. Sheets without such a header (notes, lookups) are skipped.
 */
export async function readXlsx(content: Buffer, file: string, portfolio: string, vocabulary: Vocabulary = HOLDINGS_VOCABULARY): Promise<RawTable[]> {
  await checkXlsxUnpackedSize(content, file);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as ArrayBuffer);
  } catch (e) {
    throw new InputError(`${file} is not a readable Excel (.xlsx) workbook: ${(e as Error).message}`);
  }
  const tables = workbook.worksheets.map((sheet) => {
    checkRowCount(`${file} (sheet ${sheet.name})`, sheet.actualRowCount - 1);
    const grid: unknown[][] = [];
    let firstRow = 0;
    sheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
      const cells = (row.values as unknown[]).slice(1).map(cellValue);
      if (firstRow === 0) {
        if (cells.every((c) => c === undefined || String(c).trim() === '')) return;
        firstRow = rowNumber;
      }
      grid[rowNumber - firstRow] = cells;
    });
    for (let i = 0; i < grid.length; i++) grid[i] ??= [];
    return tableFromGrid(grid, { portfolio: sheet.name, file, sheet: sheet.name, firstRow: firstRow || 1 }, vocabulary);
  });
  const holdingsSheets = tables.filter((t) => t.recognised);
  if (holdingsSheets.length === 0) return tables.slice(0, 1).map((t) => ({ ...t, portfolio }));
  if (holdingsSheets.length === 1) return [{ ...holdingsSheets[0]!, portfolio }];
  return holdingsSheets;
}

/** The value a person sees in a cell: formula results, rich text and hyperlink text unwrapped. */
function cellValue(v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  if (v instanceof Date || typeof v !== 'object') return v;
  const o = v as { result?: unknown; richText?: { text: string }[]; text?: unknown; error?: unknown };
  if ('formula' in o || 'sharedFormula' in o) return cellValue(o.result);
  if (Array.isArray(o.richText)) return o.richText.map((r) => r.text).join('');
  if ('text' in o) return cellValue(o.text);
  if ('error' in o) return String(o.error);
  return undefined;
}

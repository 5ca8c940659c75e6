import { HOLDINGS_VOCABULARY, columnLetters, mapHeaders, type Column, type Vocabulary } from '../columns';
import type { RawRecord } from '../types';

/** What every format reader yields: records keyed by column, and the portfolio name the table implies. */
export interface RawTable {
  /** The file's base name, or the sheet's name when a workbook holds one portfolio per sheet. */
  portfolio: string;
  file: string;
  sheet?: string;
  records: RawRecord[];
  unknownHeaders: string[];
  /** The columns the table has (headers or JSON keys that matched one). */
  columns: Column[];
  /** Sentences naming headers that mean the same column ("columns B (brand) and C (Maker) both mean brand"). */
  duplicates: string[];
  /** False when no header names a segment or an asset_id: not a holdings table (for a transactions table: no type header). */
  recognised: boolean;
}

/**
 * Turns a grid (first row the header) into records. `firstRow` is the header's row number as
 * the user sees it, so data rows keep their spreadsheet numbers; blank rows are skipped but counted.
 */
export function tableFromGrid(
  grid: unknown[][],
  where: { portfolio: string; file: string; sheet?: string; firstRow: number },
  vocabulary: Vocabulary = HOLDINGS_VOCABULARY,
): RawTable {
  const [header = [], ...rows] = grid;
  const { columns, unknown, duplicates } = mapHeaders(header.map((h) => (h === null || h === undefined ? '' : String(h))), vocabulary);
  const records: RawRecord[] = [];
  rows.forEach((cells, i) => {
    if (cells.every((c) => c === null || c === undefined || String(c).trim() === '')) return;
    const values: Record<string, unknown> = {};
    columns.forEach((col, j) => {
      if (col && values[col] === undefined) values[col] = cells[j];
    });
    records.push({ source: { file: where.file, sheet: where.sheet, row: where.firstRow + 1 + i }, values });
  });
  return {
    portfolio: where.portfolio,
    file: where.file,
    sheet: where.sheet,
    records,
    unknownHeaders: unknown,
    columns: [...new Set(columns.filter((c): c is Column => c !== undefined))],
    duplicates: duplicates.map(
      (d) => `columns ${columnLetters(d.positions[0])} ("${d.headers[0]}") and ${columnLetters(d.positions[1])} ("${d.headers[1]}") both mean ${d.column}: keep one`,
    ),
    recognised: vocabulary.recognisedBy.some((c) => columns.includes(c)),
  };
}

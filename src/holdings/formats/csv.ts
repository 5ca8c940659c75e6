import { parse } from 'csv-parse/sync';
import { checkRowCount, INPUT_LIMITS } from '../limits';
import { InputError } from '../types';
import { tableFromGrid, type RawTable } from './table';
import { HOLDINGS_VOCABULARY, type Vocabulary } from '../columns';

/** A CSV holdings file: comma, semicolon or tab separated (guessed from the header), UTF-8 with or without BOM. */
export function readCsv(content: string, file: string, portfolio: string, vocabulary: Vocabulary = HOLDINGS_VOCABULARY): RawTable[] {
  const text = content.replace(/^\uFEFF/, '');
  const headerLine = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = [',', ';', '\t'].reduce((best, d) => (headerLine.split(d).length > headerLine.split(best).length ? d : best), ',');
  let grid: string[][];
  try {
    // Parsing stops one record past the row limit: a file far past it is refused without reading it all.
    grid = parse(text, { delimiter, relax_column_count: true, skip_empty_lines: false, trim: true, bom: true, to: INPUT_LIMITS.rows + 2 });
  } catch (e) {
    throw new InputError(`${file} is not readable CSV: ${(e as Error).message}`);
  }
  checkRowCount(file, grid.length - 1);
  return [tableFromGrid(grid, { portfolio, file, firstRow: 1 }, vocabulary)];
}

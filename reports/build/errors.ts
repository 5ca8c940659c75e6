import { basename } from 'node:path';
import type { Holding, RowProblem } from '../../src/holdings/types';
import type { ReportError } from '../report-data';

/** Where a row is, for a reader with several files or sheets: "meridian.csv, sheet Clients". */
function where(file: string, sheet: string | undefined): string {
  return sheet ? `${basename(file)}, sheet ${sheet}` : basename(file);
}

/**
 * An input problem as the report prints it: the reason, what was found, and in which file. The
 * portfolio is its own field (a column in consolidated reports); `withPortfolio` also names it
 * in the message, for readers of one long list.
 */
export function inputError(p: RowProblem, withPortfolio = false): ReportError {
  const found = p.value !== undefined ? ` (found "${p.value.length > 60 ? p.value.slice(0, 60) + '…' : p.value}")` : '';
  const prefix = withPortfolio ? `${p.portfolio}: ` : '';
  const place = p.row === null ? '' : ` [${where(p.file, p.sheet)}]`;
  return { portfolio: p.portfolio, row: p.row, field: p.field, message: `${prefix}${p.reason}${found}.${place}` };
}

/** A holding the service could not value. */
export function valuationError(h: Holding, field: string, message: string, withPortfolio = false): ReportError {
  const prefix = withPortfolio ? `${h.portfolio}: ` : '';
  return { portfolio: h.portfolio, row: h.source.row, field, message: `${prefix}Not valued: ${message.replace(/\.$/, '')}. [${where(h.source.file, h.source.sheet)}]` };
}

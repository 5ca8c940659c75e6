import { basename } from 'node:path';
import { DEFAULT_LANGUAGE, translator, type Translator } from '../../src/i18n';
import type { Holding, RowProblem } from '../../src/holdings/types';
import type { ReportError } from '../report-data';

const english = () => translator(DEFAULT_LANGUAGE);

/** Where a row is, for a reader with several files or sheets: "meridian.csv, sheet Clients". */
function where(tr: Translator, file: string, sheet: string | undefined): string {
  return sheet ? tr.t('notes.where_sheet', { file: basename(file), sheet }) : basename(file);
}

/**
 * An input problem as the report prints it: the reason, what was found, and in which file. The
 * portfolio is its own field (a column in consolidated reports); `withPortfolio` also names it
 * in the message, for readers of one long list. The reason is the file reader's (English); where
 * it is, in the report's language (`tr`).
 */
export function inputError(p: RowProblem, withPortfolio = false, tr: Translator = english()): ReportError {
  const found = p.value !== undefined ? ` (found "${p.value.length > 60 ? p.value.slice(0, 60) + '…' : p.value}")` : '';
  const prefix = withPortfolio ? `${p.portfolio}: ` : '';
  const place = p.row === null ? '' : ` [${where(tr, p.file, p.sheet)}]`;
  return { portfolio: p.portfolio, row: p.row, field: p.field, message: `${prefix}${p.reason}${found}.${place}` };
}

/** A holding the service could not value: "Not valued: …" in the report's language, the service's reason as it gave it. */
export function valuationError(h: Holding, field: string, message: string, withPortfolio = false, tr: Translator = english()): ReportError {
  const prefix = withPortfolio ? `${h.portfolio}: ` : '';
  const said = tr.t('notes.not_valued', { reason: message.replace(/\.$/, '') });
  return { portfolio: h.portfolio, row: h.source.row, field, message: `${prefix}${said} [${where(tr, h.source.file, h.source.sheet)}]` };
}

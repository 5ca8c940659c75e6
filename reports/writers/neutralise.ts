/**
 * Spreadsheet formula injection: a text cell that starts with = + - @, a tab or a carriage
 * return can be read as a formula by Excel/LibreOffice (=HYPERLINK(...), +1, -2, @SUM...).
 * Such text gets a leading single quote so it shows literally. One rule for CSV and XLSX text
 * cells. Numbers are never passed here: they are written as numbers.
 */
const FORMULA_TRIGGER = /^[=+\-@\t\r]/;

export function neutraliseCellText(text: string): string {
  return FORMULA_TRIGGER.test(text) ? `'${text}` : text;
}

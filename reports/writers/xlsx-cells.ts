import type ExcelJS from 'exceljs';
import type { Style } from 'exceljs';
import type { ValueKind } from './holding-columns';
import { neutraliseCellText } from './neutralise';

/** A data-model value as an Excel cell value: real numbers, dates and booleans; text neutralised. */
export function xlsxValue(value: unknown, kind: ValueKind): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    return kind === 'percent' ? value / 100 : value;
  }
  if (typeof value === 'boolean') return value;
  const text = String(value);
  if (kind === 'date') {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    if (m) return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  }
  const safe = neutraliseCellText(text);
  // Excel refuses to open a workbook with a cell over 32,767 characters.
  return safe.length > EXCEL_MAX_CELL_CHARS ? `${safe.slice(0, EXCEL_MAX_CELL_CHARS - 1)}…` : safe;
}

const EXCEL_MAX_CELL_CHARS = 32_767;

export interface CellInput {
  value: unknown;
  kind?: ValueKind;
  style?: Partial<Style>;
  /** A formula (without "="): the cell recomputes from its sheet in Excel and LibreOffice; `value` is its result as we computed it. */
  formula?: string;
}

/**
 * Appends rows to a streaming worksheet and remembers the row number, so chart ranges and
 * autofilters can point at what was written. Rows are committed at once (streaming).
 */
export class SheetCursor {
  row = 0;
  constructor(
    readonly sheet: ExcelJS.Worksheet,
    private readonly styleOf: (kind: ValueKind) => Partial<Style>,
  ) {}

  /** Writes one row; `null` entries leave a cell empty. Returns its 1-based row number. */
  add(cells: (CellInput | null)[], options: { height?: number; mergeTo?: string } = {}): number {
    this.row++;
    const row = this.sheet.getRow(this.row);
    cells.forEach((c, i) => {
      if (!c) return;
      const cell = row.getCell(i + 1);
      const kind = c.kind ?? 'text';
      const value = xlsxValue(c.value, kind);
      cell.value = c.formula === undefined ? value : ({ formula: c.formula, result: value ?? undefined } as ExcelJS.CellFormulaValue);
      cell.style = c.style ?? this.styleOf(kind);
    });
    if (options.height) row.height = options.height;
    if (options.mergeTo) this.sheet.mergeCells(`A${this.row}:${options.mergeTo}${this.row}`);
    row.commit();
    return this.row;
  }

  blank(): void {
    this.row++;
  }

  /** Text across columns A..`lastColumn`, wrapped; the row height grows with the text. */
  paragraph(text: string, lastColumn: string, style: Partial<Style>, charsPerLine = 110): number {
    const lines = Math.max(1, Math.ceil(text.length / charsPerLine));
    return this.add([{ value: text, style }], { height: Math.max(15, lines * 15), mergeTo: lastColumn });
  }
}

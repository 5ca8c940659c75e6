import type { CellLookup } from './svc-formulas';

/**
 * A worksheet as the pane reads it (its used range): what freeze/restore and the refresh
 * budget work on, so both are pure functions testable without Excel.
 */
export interface SheetModel {
  name: string;
  /** 0-based position of the grid's top-left cell in the sheet. */
  rowIndex: number;
  columnIndex: number;
  /** Range.formulas: formula text, or the value for cells without one. */
  formulas: unknown[][];
  /** Range.values. */
  values: unknown[][];
  /** Range.numberFormat (the cell's own format, not a formatted number's). */
  numberFormat: unknown[][];
  /** Range.valuesAsJson where Excel has ExcelApi 1.16: formatted numbers and cards. */
  cellValues?: unknown[][];
}

/** A cell's value as Range.valuesAsJson gives it (only the fields read here). */
export interface CellJson {
  type?: string;
  basicValue?: unknown;
  numberFormat?: string;
  text?: string;
  properties?: Record<string, CellJson>;
}

export function asCellJson(v: unknown): CellJson | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as CellJson) : undefined;
}

/** Looks cells up by sheet and 0-based position across the model. */
export function lookupIn(sheets: readonly SheetModel[]): CellLookup {
  const byName = new Map(sheets.map((s) => [s.name.toLowerCase(), s]));
  return (sheet, row, column) => {
    const s = byName.get(sheet.toLowerCase());
    if (!s) return undefined;
    return s.values[row - s.rowIndex]?.[column - s.columnIndex];
  };
}

export interface FormulaCell {
  sheet: SheetModel;
  /** Position in the sheet's grid. */
  r: number;
  c: number;
  /** 0-based position in the sheet. */
  row: number;
  column: number;
  formula: string;
}

/** Every cell with a formula, sheet by sheet, row by row. */
export function* formulaCells(sheets: readonly SheetModel[]): Generator<FormulaCell> {
  for (const sheet of sheets) {
    for (let r = 0; r < sheet.formulas.length; r++) {
      const line = sheet.formulas[r]!;
      for (let c = 0; c < line.length; c++) {
        const f = line[c];
        if (typeof f === 'string' && f.startsWith('=')) yield { sheet, r, c, row: sheet.rowIndex + r, column: sheet.columnIndex + c, formula: f };
      }
    }
  }
}

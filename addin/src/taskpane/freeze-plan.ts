import type { MessageKey, MessageValues } from '../../../src/i18n';
import { addinTranslator } from '../shared/display-language';
import { CURRENCIES } from '../../../src/wire';
import { moneyFormat } from '../shared/cell-values';
import { notTheAddins } from './addin-formulas';
import { cellAddress, scalarArgument, svcCalls, type CellLookup } from './svc-formulas';
import { asCellJson, formulaCells, lookupIn, type CellJson, type FormulaCell, type SheetModel } from './workbook-model';

/**
 * Freeze for sharing, as pure logic over the sheet model: which cells hold SVC formulas, what
 * each is replaced with, the rows of the "SVC sources" sheet, and how a restore puts the
 * formulas back. The Office.js side is freeze.ts.
 */

export const SOURCES_SHEET = 'SVC sources';
/** The sources sheet's header in English; written in Excel's display language (SOURCES_HEADER_KEYS). The sheet's name stays as it is: Restore finds the record by it, whoever froze it. */
export const SOURCES_HEADER = ['address', 'original formula', 'value', 'currency', 'asset id', 'as of'] as const;
const SOURCES_HEADER_KEYS = ['addin.sources_address', 'addin.sources_formula', 'addin.sources_value', 'addin.sources_currency', 'addin.sources_asset_id', 'addin.sources_as_of'] as const satisfies readonly MessageKey[];

export type Scalar = string | number | boolean;

/** One frozen formula: what the custom XML part keeps so "Restore formulas" can put it back exactly. */
export interface FrozenCell {
  sheet: string;
  /** 0-based anchor (the formula's own cell). */
  row: number;
  column: number;
  /** The block the formula filled (its spill), 1×1 for one cell. */
  rows: number;
  columns: number;
  /** The formula text exactly as Excel gave it. */
  formula: string;
  /** The cells' own number formats before the freeze, rows × columns. */
  formats: string[][];
  /** The anchor's value when frozen (for the sources sheet and to see whether the user changed it since). */
  value: Scalar;
  currency: string;
  assetId: string;
  asOf: string;
}

/** What the adapter writes for one frozen cell: values, and formats only where a formatted number had one. */
export interface FreezeWrite {
  cell: FrozenCell;
  values: Scalar[][];
  numberFormat: (string | null)[][];
}

export class FreezeError extends Error {
  override name = 'FreezeError';
}

/** A refusal of freeze or restore, said in Excel's display language (the pane shows the message as it is). */
export const freezeError = (key: MessageKey, values?: MessageValues) => new FreezeError(addinTranslator().t(key, values));

/** A rectangle of one sheet (the selection), 0-based. */
export interface Area {
  sheet: string;
  row: number;
  column: number;
  rows: number;
  columns: number;
}

export interface FreezeOptions {
  /** Only formulas inside this area; the whole workbook when absent. */
  area?: Area;
  /** The block a formula spills into (Range.getSpillingToRangeOrNullObject), when it spills. */
  spill?: (sheet: string, row: number, column: number) => { rows: number; columns: number } | undefined;
  now: Date;
}

/** Functions whose first argument is an asset id (the sources sheet names it). */
const ASSET_FIRST = new Set(['MIDVALUE', 'VALUATION', 'SCORE', 'FACTORS', 'PROJECTION', 'EXPECTEDROI', 'EXITNET', 'ASSET', 'COVER']);
/** Excel's error values as Range.values gives them: #BUSY! means the cell has no value yet. */
const STILL_CALCULATING = '#BUSY!';

function inArea(area: Area | undefined, sheet: string, row: number, column: number): boolean {
  if (!area) return true;
  return area.sheet.toLowerCase() === sheet.toLowerCase() && row >= area.row && row < area.row + area.rows && column >= area.column && column < area.column + area.columns;
}

/** Excel date serial (days since 1899-12-30, UTC here) to an ISO time. */
export function serialToIso(serial: number): string {
  return new Date(Math.round((serial - 25569) * 86_400_000)).toISOString();
}

function currencyOfFormat(format: string | undefined): string {
  if (!format) return '';
  return CURRENCIES.find((c) => moneyFormat(c) === format) ?? '';
}

/** A cell's frozen value and the format it showed with, from valuesAsJson when Excel gave it, else Range.values. */
function frozenValue(plain: unknown, json: CellJson | undefined): { value: Scalar; format: string | null } {
  if (json?.type === 'FormattedNumber' && typeof json.basicValue === 'number') return { value: json.basicValue, format: json.numberFormat ?? null };
  // A card freezes to its title (the text the cell shows); its fields go to the sources sheet.
  if (json?.type === 'Entity' && typeof json.text === 'string') return { value: json.text, format: null };
  if (typeof plain === 'number' || typeof plain === 'boolean' || typeof plain === 'string') return { value: plain, format: null };
  return { value: '', format: null };
}

function provenance(cell: { formula: string; sheet: string }, value: Scalar, format: string | null, json: CellJson | undefined, lookup: CellLookup, now: Date) {
  const props = json?.type === 'Entity' ? json.properties ?? {} : {};
  const text = (p: CellJson | undefined) => (typeof p?.basicValue === 'string' ? p.basicValue : '');
  const call = svcCalls(cell.formula)[0];
  let assetId = text(props['Asset id']);
  if (!assetId && call && ASSET_FIRST.has(call.name)) {
    const a = scalarArgument(call.args[0], cell.sheet, lookup);
    assetId = typeof a === 'string' ? a.trim() : '';
  }
  if (!assetId && call?.name === 'ASSETID' && typeof value === 'string') assetId = value;
  const asOfSerial = props['As of']?.basicValue;
  return {
    currency: text(props.Currency) || currencyOfFormat(format ?? undefined),
    assetId,
    // A card says when its valuation was made; a number was current when the pane read it.
    asOf: typeof asOfSerial === 'number' ? serialToIso(asOfSerial) : now.toISOString(),
  };
}

/** The cells to freeze: SVC formulas in the area (or anywhere but the sources sheet). */
export function svcAnchors(sheets: readonly SheetModel[], area: Area | undefined): FormulaCell[] {
  return [...formulaCells(sheets)].filter((f) => !sheetIsSources(f.sheet.name) && svcCalls(f.formula).length > 0 && inArea(area, f.sheet.name, f.row, f.column));
}

/** Plans the freeze: one write per SVC formula in the area (or workbook). Throws when a cell is still calculating. */
export function planFreeze(sheets: readonly SheetModel[], options: FreezeOptions): FreezeWrite[] {
  const lookup = lookupIn(sheets);
  const writes: FreezeWrite[] = [];
  for (const f of svcAnchors(sheets, options.area)) {
    const extent = options.spill?.(f.sheet.name, f.row, f.column) ?? { rows: 1, columns: 1 };
    const values: Scalar[][] = [];
    const numberFormat: (string | null)[][] = [];
    const formats: string[][] = [];
    for (let r = 0; r < extent.rows; r++) {
      values.push([]);
      numberFormat.push([]);
      formats.push([]);
      for (let c = 0; c < extent.columns; c++) {
        const plain = f.sheet.values[f.r + r]?.[f.c + c];
        if (plain === STILL_CALCULATING) {
          throw freezeError('addin.freeze_busy', { cell: cellAddress(f.sheet.name, f.row + r, f.column + c) });
        }
        const v = frozenValue(plain, asCellJson(f.sheet.cellValues?.[f.r + r]?.[f.c + c]));
        values[r]!.push(v.value);
        numberFormat[r]!.push(v.format);
        const own = f.sheet.numberFormat[f.r + r]?.[f.c + c];
        formats[r]!.push(typeof own === 'string' ? own : 'General');
      }
    }
    const json = asCellJson(f.sheet.cellValues?.[f.r]?.[f.c]);
    const value = values[0]![0]!;
    const cell: FrozenCell = {
      sheet: f.sheet.name,
      row: f.row,
      column: f.column,
      rows: extent.rows,
      columns: extent.columns,
      formula: f.formula,
      formats,
      value,
      ...provenance({ formula: f.formula, sheet: f.sheet.name }, value, numberFormat[0]![0]!, json, lookup, options.now),
    };
    writes.push({ cell, values, numberFormat });
  }
  return writes;
}

function sheetIsSources(name: string): boolean {
  return name.toLowerCase() === SOURCES_SHEET.toLowerCase();
}

/** The "SVC sources" sheet: a header and one row per frozen cell, in sheet order. */
export function sourcesRows(cells: readonly FrozenCell[]): Scalar[][] {
  const tr = addinTranslator();
  return [SOURCES_HEADER_KEYS.map((k) => tr.t(k)), ...cells.map((c) => [cellAddress(c.sheet, c.row, c.column), c.formula, c.value, c.currency, c.assetId, c.asOf])];
}

/** What "Restore formulas" writes for one cell: the formula at the anchor, the rest of its block emptied, the formats back. */
export interface RestoreWrite {
  cell: FrozenCell;
  /** rows × columns: the formula first, then '' for the cells the formula will spill into again. */
  formulas: string[][];
}

/** A frozen formula that is not the add-in's own (addin-formulas.ts): restored only once the user confirms it. */
export interface OtherFormula {
  address: string;
  formula: string;
  /** What in it is not SVC's: function names, links out. */
  outside: string[];
}

export interface RestorePlan {
  writes: RestoreWrite[];
  /** Frozen cells the user changed since (or whose sheet is gone): left as they are, named to the user. */
  changed: string[];
  /** Formulas not the add-in's own, not confirmed: left as values, listed for the user to confirm. */
  others: OtherFormula[];
}

/** What the user confirmed: exactly these formulas at exactly these addresses (a part changed since the question is asked again). */
export type ConfirmedOthers = ReadonlySet<string>;
export const confirmationKey = (o: Pick<OtherFormula, 'address' | 'formula'>) => `${o.address}\u0000${o.formula}`;

function sameValue(now: unknown, frozen: Scalar): boolean {
  if (typeof frozen === 'number' && typeof now === 'number') return Math.abs(now - frozen) <= 1e-9 * Math.max(1, Math.abs(frozen));
  return now === frozen;
}

/**
 * Plans the restore: every frozen cell still holding its frozen value gets its formula back,
 * if the formula is the add-in's own or the user confirmed it (`confirmed`); the others are listed.
 */
export function planRestore(cells: readonly FrozenCell[], sheets: readonly SheetModel[], confirmed: ConfirmedOthers = new Set()): RestorePlan {
  const lookup = lookupIn(sheets);
  const writes: RestoreWrite[] = [];
  const changed: string[] = [];
  const others: OtherFormula[] = [];
  for (const cell of cells) {
    const now = lookup(cell.sheet, cell.row, cell.column);
    const address = cellAddress(cell.sheet, cell.row, cell.column);
    if (!sameValue(now, cell.value)) {
      changed.push(address);
      continue;
    }
    const outside = notTheAddins(cell.formula);
    if (outside.length > 0 && !confirmed.has(confirmationKey({ address, formula: cell.formula }))) {
      others.push({ address, formula: cell.formula, outside });
      continue;
    }
    const formulas = Array.from({ length: cell.rows }, (_, r) => Array.from({ length: cell.columns }, (_, c) => (r === 0 && c === 0 ? cell.formula : '')));
    writes.push({ cell, formulas });
  }
  return { writes, changed, others };
}

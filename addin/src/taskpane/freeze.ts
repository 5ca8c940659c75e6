/// <reference types="office-js" />
import {
  freezeError,
  planFreeze,
  planRestore,
  sourcesRows,
  SOURCES_HEADER,
  SOURCES_SHEET,
  svcAnchors,
  type Area,
  type ConfirmedOthers,
  type FrozenCell,
  type OtherFormula,
  type Scalar,
} from './freeze-plan';
import { FROZEN_NAMESPACE, parseFrozen, serializeFrozen } from './freeze-xml';
import { hasExcelApi, readWorkbook } from './workbook-reader';

/**
 * Freeze for sharing and "Restore formulas": the thin Office.js side of freeze-plan.ts. The
 * frozen formulas live in a custom XML part of the workbook (our namespace), so they travel
 * with the file; the "SVC sources" sheet says where every frozen value came from.
 */

/** Writes per sync: keeps each request to Excel small (Excel on the web limits a request's size). */
const WRITES_PER_SYNC = 1_000;

export type FreezeScope = 'workbook' | 'selection';

export interface FreezeResult {
  frozen: number;
  /** Frozen cells in the workbook after this freeze (earlier freezes included). */
  total: number;
}

async function selectedArea(ctx: Excel.RequestContext): Promise<Area> {
  const sel = ctx.workbook.getSelectedRange();
  sel.load(['rowIndex', 'columnIndex', 'rowCount', 'columnCount']);
  sel.worksheet.load('name');
  await ctx.sync();
  return { sheet: sel.worksheet.name, row: sel.rowIndex, column: sel.columnIndex, rows: sel.rowCount, columns: sel.columnCount };
}

/** The frozen cells the workbook already keeps, and its parts holding them (to replace them). */
async function frozenParts(ctx: Excel.RequestContext): Promise<{ cells: FrozenCell[]; parts: Excel.CustomXmlPart[] }> {
  const scoped = ctx.workbook.customXmlParts.getByNamespace(FROZEN_NAMESPACE);
  scoped.load('items');
  await ctx.sync();
  const xml = scoped.items.map((p) => p.getXml());
  await ctx.sync();
  return { cells: xml.flatMap((x) => parseFrozen(x.value)), parts: scoped.items };
}

/** A value as a typed cell value (ExcelApi 1.16): strings are stored as they are, never parsed as formulas. */
function cellValueOf(v: Scalar): Excel.CellValue {
  if (typeof v === 'number') return { type: Excel.CellValueType.double, basicValue: v };
  if (typeof v === 'boolean') return { type: Excel.CellValueType.boolean, basicValue: v };
  return { type: Excel.CellValueType.string, basicValue: v };
}

/** Before ExcelApi 1.16, text Excel would parse (=…, or a leading ' it takes as its text prefix) goes in behind a ' prefix. */
function asTypedText(v: Scalar): Scalar {
  return typeof v === 'string' && /^['=+\-@]/.test(v) ? `'${v}` : v;
}

/** Replaces the workbook's frozen-formula part and its sources sheet with these cells (none: both go). */
async function writeRecord(ctx: Excel.RequestContext, cells: FrozenCell[], oldParts: Excel.CustomXmlPart[], now: Date): Promise<void> {
  for (const p of oldParts) p.delete();
  const old = ctx.workbook.worksheets.getItemOrNullObject(SOURCES_SHEET);
  old.load('isNullObject');
  await ctx.sync();
  if (!old.isNullObject) old.delete();
  if (cells.length === 0) return ctx.sync();
  ctx.workbook.customXmlParts.add(serializeFrozen(cells, now));
  const sheet = ctx.workbook.worksheets.add(SOURCES_SHEET);
  const rows = sourcesRows(cells);
  const range = sheet.getRangeByIndexes(0, 0, rows.length, SOURCES_HEADER.length);
  range.numberFormat = rows.map(() => ['@', '@', 'General', '@', '@', '@']);
  // The original formulas and quoted addresses must stay text: no cell in this sheet calls SVC.
  if (hasExcelApi('1.16')) range.valuesAsJson = rows.map((row) => row.map(cellValueOf));
  else range.values = rows.map((row) => row.map(asTypedText));
  range.format.autofitColumns();
  await ctx.sync();
}

/** Replaces every SVC formula in the workbook (or the selection) with its value; returns how many. */
export async function freezeFormulas(scope: FreezeScope, now = new Date()): Promise<FreezeResult> {
  return Excel.run(async (ctx) => {
    const area = scope === 'selection' ? await selectedArea(ctx) : undefined;
    const sheets = await readWorkbook(ctx);
    const anchors = svcAnchors(sheets, area);
    if (anchors.length === 0) throw freezeError(scope === 'selection' ? 'addin.freeze_none_selection' : 'addin.freeze_none_workbook');
    // Formulas that spill (VALUATION, FACTORS, …): the whole block is frozen, not only its first cell.
    // (Excel without dynamic arrays, before ExcelApi 1.12, spills nothing.)
    const spills = new Map<string, { rows: number; columns: number }>();
    const probing = hasExcelApi('1.12') ? anchors : [];
    for (let i = 0; i < probing.length; i += WRITES_PER_SYNC) {
      const probes = probing.slice(i, i + WRITES_PER_SYNC).map((a) => ({ a, r: ctx.workbook.worksheets.getItem(a.sheet.name).getRangeByIndexes(a.row, a.column, 1, 1).getSpillingToRangeOrNullObject().load(['isNullObject', 'rowCount', 'columnCount']) }));
      await ctx.sync();
      for (const { a, r } of probes) if (!r.isNullObject) spills.set(`${a.sheet.name}\u0000${a.row}\u0000${a.column}`, { rows: r.rowCount, columns: r.columnCount });
    }
    const writes = planFreeze(sheets, { area, now, spill: (s, row, column) => spills.get(`${s}\u0000${row}\u0000${column}`) });
    const existing = await frozenParts(ctx);
    for (let i = 0; i < writes.length; i++) {
      const { cell, values, numberFormat } = writes[i]!;
      const range = ctx.workbook.worksheets.getItem(cell.sheet).getRangeByIndexes(cell.row, cell.column, cell.rows, cell.columns);
      // A formatted number's format becomes the cell's own; other cells keep theirs.
      range.numberFormat = numberFormat.map((line, r) => line.map((f, c) => f ?? cell.formats[r]![c]!));
      range.values = values;
      if ((i + 1) % WRITES_PER_SYNC === 0) await ctx.sync();
    }
    const all = [...existing.cells, ...writes.map((w) => w.cell)];
    await writeRecord(ctx, all, existing.parts, now);
    return { frozen: writes.length, total: all.length };
  });
}

export interface RestoreResult {
  restored: number;
  /** Cells changed since the freeze: left as they are, still listed in the sources sheet. */
  changed: string[];
  /** Formulas not the add-in's own: left as values until the user confirms them (restoreFormulas again with them confirmed). */
  others: OtherFormula[];
}

/**
 * "Restore formulas": puts every frozen formula back exactly, with the cells' own formats: the
 * add-in's own formulas, and others only where `confirmed` names them (the pane asks first).
 */
export async function restoreFormulas(now = new Date(), confirmed?: ConfirmedOthers): Promise<RestoreResult> {
  return Excel.run(async (ctx) => {
    const existing = await frozenParts(ctx);
    if (existing.cells.length === 0) throw freezeError('addin.restore_none');
    const plan = planRestore(existing.cells, await readWorkbook(ctx, false), confirmed);
    for (let i = 0; i < plan.writes.length; i++) {
      const { cell, formulas } = plan.writes[i]!;
      const range = ctx.workbook.worksheets.getItem(cell.sheet).getRangeByIndexes(cell.row, cell.column, cell.rows, cell.columns);
      range.numberFormat = cell.formats;
      range.formulas = formulas;
      if ((i + 1) % WRITES_PER_SYNC === 0) await ctx.sync();
    }
    const restored = new Set(plan.writes.map((w) => w.cell));
    await writeRecord(ctx, existing.cells.filter((c) => !restored.has(c)), existing.parts, now);
    return { restored: plan.writes.length, changed: plan.changed, others: plan.others };
  });
}

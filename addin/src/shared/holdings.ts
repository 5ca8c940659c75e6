import type { ValuationRequest } from '../../../src/wire';
import { tableFromGrid } from '../../../reports/input/formats/table';
import { toHolding } from '../../../reports/input/holding';
import type { Holding, RowProblem } from '../../../reports/input/types';
import { InputError } from './input-error';

/**
 * Holdings tables in the add-in are read by the report job's own reader (same columns,
 * aliases and row rules), so a table that works in the workbook works in `svc-report`.
 */

export type HoldingRow = { row: number; holding: Holding } | { row: number; problems: RowProblem[] };

export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** A grid whose first row is the header; `firstRow` is the header's sheet row number. */
export function readHoldingsGrid(grid: unknown[][], where: { sheet?: string; firstRow?: number } = {}): { rows: HoldingRow[]; recognised: boolean; unknownHeaders: string[] } {
  const table = tableFromGrid(grid, { portfolio: where.sheet ?? 'Selection', file: 'workbook', sheet: where.sheet, firstRow: where.firstRow ?? 1 });
  const asOf = todayUtc();
  const rows = table.records.map((record): HoldingRow => {
    const result = toHolding(record, table.portfolio, { asOf });
    return 'holding' in result ? { row: record.source.row, holding: result.holding } : { row: record.source.row, problems: result.problems };
  });
  return { rows, recognised: table.recognised, unknownHeaders: table.unknownHeaders };
}

/** An asset id typed in a cell, read the way the report job reads an asset_id column. */
export function holdingForAssetId(argument: string, assetId: string): Holding {
  const { rows } = readHoldingsGrid([['asset_id'], [assetId]]);
  const first = rows[0];
  if (!first) throw new InputError(argument, `${argument} is required: an asset id such as SVC-WAT-ROLEX-126610LN-2021.`);
  if ('problems' in first) throw new InputError(argument, `${argument}: ${first.problems[0]!.reason} (got "${assetId}").`);
  return first.holding;
}

/** The valuation request for a holding: its descriptors, as the service takes them. */
export function valuationRequestFor(h: Holding): ValuationRequest {
  const req: ValuationRequest = { segment: h.segment, brand: h.brand, model: h.model };
  if (h.reference !== undefined) req.reference = h.reference;
  if (h.year !== undefined) req.year = h.year;
  if (h.condition !== undefined) req.condition = h.condition;
  if (h.boxPapers !== undefined) req.box_papers = h.boxPapers;
  if (h.size !== undefined) req.size = h.size;
  if (h.quantity !== 1) req.quantity = h.quantity;
  if (h.medium !== undefined) req.medium = h.medium;
  if (h.sizeCm !== undefined) req.size_cm = h.sizeCm;
  return req;
}

/** The first problem of a row, as a sentence naming the row and field. */
export function describeRowProblem(row: number, problems: RowProblem[]): string {
  const p = problems[0];
  return p ? `Row ${row}, ${p.field}: ${p.reason}.` : `Row ${row} could not be read.`;
}

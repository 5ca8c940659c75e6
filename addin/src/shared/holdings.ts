import type { ValuationRequest } from '../../../src/wire';
import { tableFromGrid } from '../../../src/holdings/formats/table';
import { columnForHeader } from '../../../src/holdings/columns';
import { cellText } from '../../../src/holdings/cells';
import { toHolding } from '../../../src/holdings/holding';
import type { Holding, RowProblem } from '../../../src/holdings/types';
import { sayReason } from '../../../src/holdings/row-reasons';
import { InputError } from './input-error';
import { requestForAssetId, valuationRequest } from '../../../src/holdings/requests';
import { describeCloseMisses, sortUnknownHeaders } from '../../../src/holdings/unknown-columns';
import { addinTranslator } from './display-language';
import { intlLocale, type Translator } from '../../../src/i18n';

/**
 * Holdings tables in the add-in are read by the report job's own reader (same columns,
 * aliases and row rules), so a table that works in the workbook works in `svc-report`.
 */

/** `byAssetId`: the row names its asset by an id (an asset_id cell), so the id is what the service is asked for. */
export type HoldingRow = { row: number; holding: Holding; byAssetId: boolean } | { row: number; problems: RowProblem[] };

export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * A grid whose first row is the header; `firstRow` is the header's sheet row number.
 * `purpose: 'valuation'` (the functions, Value selection) needs no purchase price or date,
 * which the report job requires; a report (the export) reads the table exactly as svc-report does.
 */
export function readHoldingsGrid(
  grid: unknown[][],
  where: { sheet?: string; firstRow?: number; purpose?: 'valuation' | 'report' } = {},
): { rows: HoldingRow[]; recognised: boolean; unknownHeaders: string[]; columnProblem?: string } {
  const table = tableFromGrid(withIsoDates(grid), { portfolio: where.sheet ?? 'Selection', file: 'workbook', sheet: where.sheet, firstRow: where.firstRow ?? 1 });
  const asOf = todayUtc();
  if ((where.purpose ?? 'valuation') === 'valuation') {
    for (const record of table.records) {
      if (cellText(record.values.purchase_price) === undefined) record.values.purchase_price = 0;
      if (cellText(record.values.purchase_date) === undefined) record.values.purchase_date = asOf;
    }
  }
  const rows = table.records.map((record): HoldingRow => {
    const result = toHolding(record, table.portfolio, { asOf });
    return 'holding' in result
      ? { row: record.source.row, holding: result.holding, byAssetId: cellText(record.values.asset_id) !== undefined }
      : { row: record.source.row, problems: result.problems };
  });
  return { rows, recognised: table.recognised, unknownHeaders: table.unknownHeaders, columnProblem: closeMissProblem(table.unknownHeaders) };
}

/**
 * A header a slip away from a column ("Curency"): as in svc-report, the table is not valued
 * (its prices would be read in the wrong currency, its quantities as one) and the sentence says
 * which header and what it was likely meant to be. The workbook has no --ignore-column: the
 * header is renamed or the column left out of the selection.
 */
function closeMissProblem(unknownHeaders: readonly string[]): string | undefined {
  const { closeMisses } = sortUnknownHeaders(unknownHeaders);
  if (closeMisses.length === 0) return undefined;
  const tr = addinTranslator();
  // English: the reader's own sentence, as svc-report says it (src/holdings/unknown-columns.ts); another language: the same sentence from the catalogue.
  if (tr.lang === 'en') return describeCloseMisses('The header row', closeMisses, () => 'give the column another name, or leave it out of the table.');
  const list = (items: string[]) => new Intl.ListFormat(intlLocale(tr.lang), { type: 'conjunction' }).format(items);
  const effects = closeMisses.flatMap((m) => (m.column === 'currency' ? [tr.t('addin.header_effect_currency')] : m.column === 'quantity' ? [tr.t('addin.header_effect_quantity')] : []));
  return tr.t('addin.header_close_miss', {
    count: closeMisses.length,
    headers: list(closeMisses.map((m) => tr.t('addin.header_close_miss_item', { header: m.header, column: m.column }))),
    effects: effects.length ? tr.t('addin.header_effects', { effects: list(effects) }) : '',
    column: closeMisses[0]!.column,
  });
}

/** An asset id typed in a cell, read the way the report job reads an asset_id column. */
export function holdingForAssetId(argument: string, assetId: string): Holding {
  const { rows } = readHoldingsGrid([['asset_id'], [assetId]]);
  const first = rows[0];
  const tr = addinTranslator();
  if (!first) throw new InputError(argument, tr.t('addin.arg_asset_required', { name: argument }));
  if ('problems' in first) throw new InputError(argument, tr.t('addin.arg_asset_problem', { name: argument, reason: reasonIn(first.problems[0]!, tr), got: assetId }));
  return first.holding;
}

/**
 * The request for an asset id typed in a cell: the id itself (the report job's mapping, which
 * sends an asset_id cell as asset_id). The service resolves the id by lookup and the client checks
 * that the answer names the same id (AssetMismatchError otherwise: the cell shows #N/A).
 */
export { requestForAssetId };

/** A table row's request: by its id when it names one, else by its descriptors (the report job's mapping). */
export function requestForRow(row: { holding: Holding; byAssetId: boolean }): ValuationRequest {
  return row.byAssetId ? requestForAssetId(row.holding) : valuationRequest(row.holding);
}

/** The valuation request for a holding by its descriptors: the report job's own mapping. */
export { valuationRequest as valuationRequestFor };

/**
 * What to multiply a valuation by to get the holding's value: 1 when the request carried the
 * quantity (the service then values the whole holding), else the number of units.
 */
export function holdingMultiplier(request: ValuationRequest, holding: Holding): number {
  return request.quantity === undefined ? holding.quantity : 1;
}

/** The first problem of a row, as a sentence naming the row and field, in Excel's display language. */
export function describeRowProblem(row: number, problems: RowProblem[]): string {
  const tr = addinTranslator();
  const p = problems[0];
  return p ? tr.t('addin.row_problem', { row: String(row), field: p.field, reason: reasonIn(p, tr) }) : tr.t('addin.row_unreadable', { row: String(row) });
}

/** A row's reason in the language: the reader's catalogue message (and any hint inside it) where it has one, else its English. */
function reasonIn(p: RowProblem, tr: Translator): string {
  return p.said ? sayReason(tr, p.said) : p.reason;
}

/** Excel's day 0 (serial 1 is 1900-01-01; the 1900 leap-year bug is why the epoch is the 30th). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

/** Excel hands dates to add-ins as serial numbers; the report reader takes YYYY-MM-DD. */
export function excelSerialToIsoDate(serial: number): string {
  return new Date(EXCEL_EPOCH_MS + Math.round(serial) * 86_400_000).toISOString().slice(0, 10);
}

function withIsoDates(grid: unknown[][]): unknown[][] {
  const [header, ...rows] = grid;
  if (!header) return grid;
  const dateColumns = header.map((h, i) => (typeof h === 'string' && columnForHeader(h) === 'purchase_date' ? i : -1)).filter((i) => i >= 0);
  if (dateColumns.length === 0) return grid;
  return [
    header,
    ...rows.map((row) => row.map((cell, i) => (dateColumns.includes(i) && typeof cell === 'number' && cell > 0 && cell < 2_958_466 ? excelSerialToIsoDate(cell) : cell))),
  ];
}

import type { Holding, ReportData } from '../report-data';
import { streamTextFile } from './chunked-writer';
import { HOLDING_COLUMNS, type ValueKind } from './holding-columns';
import { neutraliseCellText } from './neutralise';

/** RFC 4180 record separator. */
const CRLF = '\r\n';
/** Excel only reads a CSV as UTF-8 when it starts with a BOM. */
const BOM = '\uFEFF';

/** A text field, neutralised against formula injection, quoted when it holds a quote, comma or line break. */
export function csvText(text: string): string {
  const safe = neutraliseCellText(text);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A number as a number: dot decimal, no thousands separator, no exponent for report-sized values. */
export function csvNumber(value: number, kind: ValueKind): string {
  if (!Number.isFinite(value)) return '';
  // Rounding by arithmetic then String() is several times faster than toFixed and gives the
  // shortest exact text ("110.1"); report-sized values never reach exponent notation.
  if (kind === 'money') return String(Math.round(value * 100) / 100);
  if (kind === 'int') return String(Math.round(value));
  // percent and ratio: up to 4 decimals.
  return String(Math.round(value * 10_000) / 10_000);
}

export function csvValue(value: unknown, kind: ValueKind): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return csvNumber(value, kind);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return csvText(String(value));
}

/** Writes any CSV table to `filePath`, streaming its rows. */
export async function writeCsvTable(filePath: string, header: readonly string[], rows: Iterable<string[]>): Promise<void> {
  await streamTextFile(filePath, async (out) => {
    await out.text(BOM + header.map(csvText).join(',') + CRLF);
    for (const cells of rows) await out.text(cells.join(',') + CRLF);
  });
}

const CSV_HEADER = [...HOLDING_COLUMNS.map((c) => c.key), 'currency'];

function* holdingRows(holdings: Iterable<Holding>, currency: string): Iterable<string[]> {
  const currencyCell = csvText(currency);
  const columns = HOLDING_COLUMNS.map((c) => ({ key: c.key, kind: c.kind }));
  const width = columns.length;
  for (const h of holdings) {
    const cells = new Array<string>(width + 1);
    for (let i = 0; i < width; i++) cells[i] = csvValue(h[columns[i]!.key], columns[i]!.kind);
    cells[width] = currencyCell;
    yield cells;
  }
}

/**
 * The portfolio as CSV: one record per holding (the machine-readable export; the summary,
 * errors and notes live in the XLSX, JSON and PDF). Streams, so a million rows fit in bounded memory.
 */
export async function writeCsv(data: ReportData, filePath: string): Promise<void> {
  await writeCsvTable(filePath, CSV_HEADER, holdingRows(data.holdings, data.cover.currency));
}

import type { ReportData } from '../report-data';
import { streamTextFile } from './chunked-writer';
import { INSURANCE_CSV_COLUMNS, holdingColumns, type ValueKind } from './holding-columns';
import { localiseColumns } from './table-columns';
import { neutraliseCellText } from './neutralise';
import { translator } from '../../src/i18n';

/**
 * The CSV's header row: `english`, the machine-stable column keys ("asset_id", the default:
 * import pipelines read them), or `language`, the columns' labels in the report's language
 * (issue 36; docs/decisions.md). The values are the same either way: dot decimals, codes.
 */
export type CsvHeaders = 'english' | 'language';
export const CSV_HEADERS: readonly CsvHeaders[] = ['english', 'language'];

export interface CsvOptions {
  headers?: CsvHeaders;
}

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
  // Exchange rates keep the precision they are published with (the ECB gives up to 6 significant digits).
  if (kind === 'rate') return String(Math.round(value * 1e8) / 1e8);
  // percent, points and ratio: up to 4 decimals.
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
    for (const cells of rows) {
      const wait = out.text(cells.join(',') + CRLF);
      if (wait) await wait;
    }
  });
}

/** One formatter per column kind, chosen once, so the per-row loop does no dispatch on the kind. */
function cellFormatter(kind: ValueKind): (value: unknown) => string {
  if (kind === 'money' || kind === 'int' || kind === 'percent' || kind === 'points' || kind === 'ratio' || kind === 'rate') {
    return (v) => (typeof v === 'number' ? csvNumber(v, kind) : v === null || v === undefined ? '' : csvText(String(v)));
  }
  return (v) => csvValue(v, kind);
}

/**
 * The portfolio as CSV: one record per holding, plus the report currency and the sandbox flag
 * (the machine-readable export; the summary, errors and notes live in the XLSX, JSON and PDF). Rows are built as single strings and
 * streamed with backpressure, so a million rows run in bounded memory and little garbage.
 */
export async function writeCsv(data: ReportData, filePath: string, options: CsvOptions = {}): Promise<void> {
  const tr = translator(data.language ?? 'en');
  const byLanguage = options.headers === 'language';
  const columns = holdingColumns(data, byLanguage ? tr : undefined);
  const keys = columns.map((c) => c.key);
  const format = columns.map((c) => cellFormatter(c.kind));
  const width = keys.length;
  // Every record says its currency and whether it is sandbox data, so a row copied out of the file keeps both.
  const tail = `,${csvText(data.cover.currency)},${data.cover.sandbox ? 'true' : 'false'}`;
  // The insurance review's columns, last, only when the report has one (a holding it does not review: empty cells).
  const cover = data.insurance ? localiseColumns(INSURANCE_CSV_COLUMNS, byLanguage ? tr : translator('en')) : [];
  const reviewed = new Map((data.insurance?.items ?? []).map((i) => [i.row, i]));
  const coverCells = (row: number) => {
    const item = reviewed.get(row);
    let cells = '';
    for (const c of cover) cells += ',' + (item ? csvValue(item[c.key], c.kind) : '');
    return cells;
  };
  const header = (
    byLanguage
      ? [...columns.map((c) => c.label), tr.t('columns.currency'), tr.t('columns.sandbox'), ...cover.map((c) => c.label)]
      : [...keys, 'currency', 'sandbox', ...cover.map((c) => c.header)]
  )
    .map(csvText)
    .join(',');
  await streamTextFile(filePath, async (out) => {
    await out.text(BOM + header + CRLF);
    for (const h of data.holdings) {
      let line = format[0]!(h[keys[0]!]);
      for (let i = 1; i < width; i++) line += ',' + format[i]!(h[keys[i]!]);
      const wait = out.text(line + tail + (cover.length > 0 ? coverCells(h.row) : '') + CRLF);
      if (wait) await wait;
    }
  });
}

/**
 * The realised-gains CSV's columns: one record per sale matched against one lot (the lot it
 * names, else first in, first out). `unit` (case or bottle, for wine and spirits) says what
 * `quantity` counts and `lot` names the lot sold from (issue 34); both after the columns of
 * issue 23, so a reader by position keeps its columns.
 */
export const REALISED_GAIN_COLUMNS = ['asset_id', 'description', 'opened', 'sold', 'quantity', 'cost', 'proceeds', 'gain', 'source', 'currency', 'sandbox', 'unit', 'lot'] as const;

/** "<report>.csv" → "<report>-realised-gains.csv": the second CSV of a report with a history, beside its holdings CSV. */
export function realisedGainsCsvPath(holdingsCsvPath: string): string {
  return holdingsCsvPath.replace(/(\.csv)?$/i, '-realised-gains.csv');
}

/**
 * The realised gains as their own CSV (issue 23): the holdings CSV stays one table of one record
 * per holding, as documented, and a program reading the gains reads a second table with its own
 * header rather than rows of another shape mixed in. Money to the cent in the report currency;
 * every record carries the currency and sandbox flag, as the holdings CSV's do.
 */
/** The realised-gains CSV's header in the report's language, column for column. */
const REALISED_GAIN_LABELS = ['columns.asset_id', 'columns.description', 'columns.bought', 'columns.sold', 'columns.quantity', 'common.cost', 'columns.proceeds', 'columns.gain', 'columns.source', 'columns.currency', 'columns.sandbox', 'columns.unit', 'columns.lot'] as const;

export async function writeRealisedGainsCsv(data: ReportData, filePath: string, options: CsvOptions = {}): Promise<void> {
  const lines = data.history?.realised_gain.lines ?? [];
  const tail = [csvText(data.cover.currency), data.cover.sandbox ? 'true' : 'false'];
  const tr = translator(data.language ?? 'en');
  await writeCsvTable(
    filePath,
    options.headers === 'language' ? REALISED_GAIN_LABELS.map((k) => tr.t(k)) : REALISED_GAIN_COLUMNS,
    lines.map((l) => [
      csvText(l.asset_id), csvText(l.description), l.opened, l.sold, csvNumber(l.quantity, 'ratio'),
      csvNumber(l.cost, 'money'), csvNumber(l.proceeds, 'money'), csvNumber(l.gain, 'money'), csvText(l.source), ...tail,
      l.unit ?? '', csvText(l.lot ?? ''),
    ]),
  );
}

/**
 * The CSV format of a report: the holdings, and for a report whose history has sales its
 * realised gains beside them. Returns the further files written, for the run's list of files (and its manifest).
 */
export async function writeCsvFiles(data: ReportData, filePath: string, options: CsvOptions = {}): Promise<string[]> {
  await writeCsv(data, filePath, options);
  // Only when something was sold: a portfolio without sales (a holdings file alone) writes the files it always did.
  if (!data.history || data.history.realised_gain.lines.length === 0) return [];
  const gains = realisedGainsCsvPath(filePath);
  await writeRealisedGainsCsv(data, gains, options);
  return [gains];
}

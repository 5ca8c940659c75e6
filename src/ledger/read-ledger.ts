/**
 * Reading transactions files into a ledger (issue 23). A transactions file is a holdings file's
 * sibling: csv, xlsx or json, read by the same format readers, header aliases, decimal-mark rules
 * and close-miss checks, its asset named by the same descriptors (so a row gives the asset id a
 * holdings file would) or an asset_id. It is recognised by its `type` column. Bad rows are
 * problems by row and field, never thrown; a file that is not a transactions table stops the run
 * (InputError, exit 2) as a bad holdings file does. What is held, and whether a sale exceeds it,
 * is the ledger maths' to say, not the reader's.
 */
import type { DecimalConvention, DecimalMark } from '../holdings/amounts';
import { notADay, cellText, readDateText, readNumber, type Read } from '../holdings/cells';
import { aboutField } from '../holdings/row-reasons';
import { LEDGER_VOCABULARY, type Column } from '../holdings/columns';
import type { RawTable } from '../holdings/formats/table';
import { assetIdOf, columnMarks, readDescriptors, rowReader } from '../holdings/holding';
import { readTables, suggestion, tableName, unreadColumns, type TableReader } from '../holdings/load';
import { COVER_COLUMNS, readCover } from '../holdings/cover';
import { InputError, type Holding, type PortfolioInput, type RawRecord, type RowProblem } from '../holdings/types';
import { isCurrencyCode } from '../fx/codes';
import { singleLine } from '../single-line';
import type { PortfolioLanguages } from '../holdings/language';
import { isRealDate } from '../wire';
import { LEDGER_UNITS, TRANSACTION_TYPES, type LedgerAsset, type LedgerEntry, type LedgerProblem, type TransactionType } from './types';
import { BOTTLES_PER_CASE, parseUnit, partProblem, rowUnits, type RowUnits } from './units';

export interface LedgerRules {
  /** The report's date (--as-of, YYYY-MM-DD): rows dated after it belong to later month-ends and are left out, counted. */
  asOf: string;
  /** The files' declared decimal mark (--decimal-comma); without it each column's own is detected, as for holdings. */
  decimalMark?: DecimalMark;
  /** Headers left out on purpose (--ignore-column), though they resemble a column. */
  ignoreColumns?: readonly string[];
  /**
   * The currency of a row without one (the report's, as a holdings row without a currency is);
   * without it, a row must name its currency.
   */
  currency?: string;
  /** Where the portfolios' languages (the `language` column, issue 36) are gathered, with their holdings files'. */
  languages?: PortfolioLanguages;
  /** How a file's tables are read (default readTables; the demo's months share one reading). */
  tablesOf?: TableReader;
}

export interface LedgerLoad {
  /** Every row read, in file order (file, then sheet, then row). */
  entries: LedgerEntry[];
  /** Rows refused, by row and field, with what is allowed. */
  problems: LedgerProblem[];
  /** Rows dated after the as-of date: not read into this month-end, counted for stderr. */
  afterAsOf: number;
  /** Headers that resemble no column (left out), as for holdings files. */
  warnings: string[];
}

/** The types that open a lot, so may state its cover. */
const OPENING_TYPES: ReadonlySet<TransactionType> = new Set(['buy', 'transfer_in']);

/** The asset-taking types: they need an asset and a quantity. Fee and income may be on the portfolio as a whole. */
const ASSET_TYPES: ReadonlySet<TransactionType> = new Set(['buy', 'sell', 'transfer_in', 'transfer_out']);

/** The columns that name an asset: any of them filled means the row is about an asset. */
const ASSET_COLUMNS: readonly Column[] = ['asset_id', 'segment', 'brand', 'producer', 'artist', 'model', 'title', 'reference', 'year', 'vintage', 'size'];

/** The columns read as numbers, each with its own decimal mark (declared, or detected in the column). */
const LEDGER_NUMBER_COLUMNS = ['amount', 'quantity', 'year', 'vintage', 'insured_value'] as const;
type LedgerNumberColumn = (typeof LEDGER_NUMBER_COLUMNS)[number];

/** The columns every transactions table must have. */
const REQUIRED: readonly Column[] = ['date', 'type', 'amount'];

/** Largest quantity of one row, as for a holding. */
const MAX_QUANTITY = 100_000;

const TYPES_LIST = TRANSACTION_TYPES.join(', ');

/**
 * "Transfer In", "transfer-in", "TRANSFER_IN" and "TransferIn" are transfer_in; anything that is
 * not one of the six types in some spelling is undefined (never guessed from a synonym).
 */
export function parseTransactionType(text: string): TransactionType | undefined {
  const t = singleLine(text).toLowerCase().replace(/[\s_-]+/g, '_');
  const squashed = t.replace(/_/g, '');
  return TRANSACTION_TYPES.find((type) => type === t || type.replace(/_/g, '') === squashed);
}

/**
 * True when the file is a transactions file: one of its tables has a `type` column. A file that
 * cannot be read as one (not a table, or JSON in the holdings shape) is not: the holdings reader
 * says what is wrong with it.
 */
export async function isTransactionsFile(file: string, tablesOf: TableReader = readTables): Promise<boolean> {
  try {
    return (await tablesOf(file, LEDGER_VOCABULARY)).some((t) => t.columns.includes('type'));
  } catch (e) {
    if (e instanceof InputError) return false;
    throw e;
  }
}

/**
 * Reads transactions files into ledger entries. One file is one portfolio named after the file
 * (a workbook's sheets after the sheets, when several are transactions tables), unless a
 * `portfolio` column or a JSON `portfolios` map names them. A file that cannot be read, is not a
 * transactions table, lacks date, type or amount, or has a header a slip away from a column
 * throws InputError (exit 2). Bad rows are problems; rows after the as-of date are counted.
 */
export async function loadLedger(files: readonly string[], rules: LedgerRules): Promise<LedgerLoad> {
  if (files.length === 0) throw new InputError('give at least one transactions file (.csv, .xlsx or .json)');
  const out: LedgerLoad = { entries: [], problems: [], afterAsOf: 0, warnings: [] };
  for (const file of files) {
    for (const table of await (rules.tablesOf ?? readTables)(file, LEDGER_VOCABULARY)) {
      const read = readLedgerTable(table, rules);
      out.entries.push(...read.entries);
      out.problems.push(...read.problems);
      out.afterAsOf += read.afterAsOf;
      out.warnings.push(...read.warnings);
    }
  }
  return out;
}

/** One table of a transactions file: its columns checked (InputError), then each row read or refused. */
export function readLedgerTable(table: RawTable, rules: LedgerRules): LedgerLoad {
  checkLedgerColumns(table);
  const { warnings } = unreadColumns(table, rules.ignoreColumns ?? [], LEDGER_VOCABULARY);
  const marks = columnMarks(table.records, LEDGER_NUMBER_COLUMNS, rules.decimalMark);
  const out: LedgerLoad = { entries: [], problems: [], afterAsOf: 0, warnings };
  for (const record of table.records) {
    // A client's name typed on two lines is one name on one line, as in a holdings file.
    const portfolio = singleLine(cellText(record.values.portfolio) ?? table.portfolio);
    rules.languages?.note(record, portfolio);
    const result = toLedgerEntry(record, portfolio, { ...rules, marks });
    if ('entry' in result) {
      out.entries.push(result.entry);
      // A bad cover cell: said by row and field; the row is still read, without it.
      out.problems.push(...(result.coverProblems ?? []));
    }
    else if ('afterAsOf' in result) out.afterAsOf++;
    else out.problems.push(...result.problems);
  }
  // "12, 48000, a case" without a unit is twelve cases: said once, so a ledger that meant bottles is told how to say so.
  const cases = table.columns.includes('unit') ? 0 : out.entries.filter((e) => e.asset?.segment === 'wine' && e.unit === 'case').length;
  if (cases > 0) {
    out.warnings.push(`${tableName(table)}: ${cases} wine row${cases === 1 ? ' gives' : 's give'} no unit and no size, so ${cases === 1 ? 'its' : 'their'} quantity counts cases of ${BOTTLES_PER_CASE} × 75 cl (the service's unit): 12 is twelve cases. Add a unit column (case or bottle) to say which; see docs/report-job.md ("Transactions files").`);
  }
  return out;
}

function checkLedgerColumns(table: RawTable): void {
  const where = tableName(table);
  if (table.duplicates.length > 0) throw new InputError(`${where}: ${table.duplicates.join('; ')}`);
  const found = () => [...table.columns, ...table.unknownHeaders].join(', ') || 'none';
  if (!table.recognised) {
    throw new InputError(
      `${where} has no type column${suggestion('type', table, LEDGER_VOCABULARY)}: a transactions file is recognised by it (${TYPES_LIST}). ` +
        `Columns found: ${found()}; they are described in docs/report-job.md ("Transactions files")`,
    );
  }
  if (table.records.length === 0) return;
  const missing = REQUIRED.filter((c) => !table.columns.includes(c));
  if (missing.length === 0) return;
  const named = missing.map((c) => `${c} column${suggestion(c, table, LEDGER_VOCABULARY)}`);
  throw new InputError(`${where} has no ${named.join('; no ')}: every transaction needs it. Columns found: ${found()}; they are described in docs/report-job.md ("Transactions files")`);
}

/**
 * Validates one row: an entry; or, for a row dated after the as-of date, afterAsOf (it is not
 * validated further: a later month-end reads it); or every problem found in it.
 */
export function toLedgerEntry(
  record: RawRecord,
  portfolio: string,
  rules: LedgerRules & { marks?: Partial<Record<LedgerNumberColumn, DecimalConvention>> },
): { entry: LedgerEntry; coverProblems?: LedgerProblem[] } | { afterAsOf: true } | { problems: LedgerProblem[] } {
  const v = record.values;
  const reader = rowReader(record, portfolio);
  const { problems, problem, text, check } = reader;
  const mark = (column: LedgerNumberColumn) => rules.marks?.[column];

  let date: string | undefined;
  const dateRead = readDateText(v.date);
  if (!dateRead) problem('date', 'date is required, as YYYY-MM-DD');
  else if ('error' in dateRead) problem('date', dateRead.reason ? aboutField(dateRead.reason, 'date') : 'date must be a date as YYYY-MM-DD', v.date);
  else if (!isRealDate(dateRead.value)) problem('date', notADay('date', dateRead.value), dateRead.value);
  else if (dateRead.value > rules.asOf) return { afterAsOf: true };
  else date = dateRead.value;

  const typeText = cellText(v.type);
  const type = typeText === undefined ? undefined : parseTransactionType(typeText);
  if (typeText === undefined) problem('type', `type is required: one of ${TYPES_LIST}`);
  else if (!type) problem('type', `type must be one of ${TYPES_LIST} (case and spaces do not matter: "Transfer In" is transfer_in)`, typeText);

  // The asset: an asset_id or descriptors; a fee or income may have none (the portfolio's as a whole).
  let assetId: string | undefined;
  let asset: LedgerAsset | undefined;
  let units: Extract<RowUnits, { assetId: string }> | undefined;
  const unitText = text('unit', 16);
  const stated = unitText === undefined ? undefined : parseUnit(unitText);
  if (unitText !== undefined && !stated) problem('unit', `unit must be ${LEDGER_UNITS.join(' or ')} (for wine and spirits: what quantity counts; a case of wine is ${BOTTLES_PER_CASE} × 75 cl)`, unitText);
  const namesAsset = ASSET_COLUMNS.some((c) => cellText(v[c]) !== undefined);
  if (namesAsset) {
    const descriptors = readDescriptors(record, reader, rules.asOf, mark);
    const size = text('size', 32);
    const spelt = assetIdOf(descriptors, size);
    const { segment, brand, model } = descriptors;
    if (spelt && segment) {
      const read = rowUnits(segment, spelt, size, stated);
      if ('problem' in read) problem(read.problem.field, read.problem.reason, unitText);
      else units = read;
    }
    assetId = units?.assetId;
    if (assetId && segment && brand && model) {
      asset = { segment, brand, model, byId: descriptors.assetId !== undefined };
      if (descriptors.reference !== undefined) asset.reference = descriptors.reference;
      if (descriptors.year !== undefined) asset.year = descriptors.year;
      if (units?.size !== undefined) asset.size = units.size;
    }
  } else if (type && ASSET_TYPES.has(type)) {
    problem('asset_id', `a ${type} row needs its asset: an asset_id (such as SVC-WAT-ROLEX-126610LN-2021) or the descriptors as in a holdings file (segment, brand, model, reference, year, size); only fee and income may be on the portfolio as a whole`);
  }
  if (stated && !namesAsset) problem('unit', 'unit (case or bottle) says what a wine or spirits row\'s quantity counts; this row names no asset: leave unit empty', unitText);

  // Units bought, sold or transferred, in the row's unit; a fee's or income's quantity is not read.
  let quantity: number | undefined;
  if (type && ASSET_TYPES.has(type)) {
    const allowed = `a positive number up to ${MAX_QUANTITY}: whole items, or for wine and spirits whole bottles (with unit case, 0.5 is 6 bottles)`;
    if (cellText(v.quantity) === undefined) problem('quantity', `quantity is required for a ${type}: ${allowed}`);
    else quantity = check('quantity', positive(readNumber(v.quantity, mark('quantity')), MAX_QUANTITY), `quantity must be ${allowed}`);
    if (quantity !== undefined && units && asset) {
      const part = partProblem(asset.segment, quantity, units, `${asset.brand} ${asset.model}${asset.year !== undefined ? ` ${asset.year}` : ''} (${units.assetId})`);
      if (part) problem('quantity', `a ${type} of ${part}`, v.quantity);
    }
  }

  // Specific identification: the lot a buy opens, or the lot a sale or transfer out takes from.
  const lot = text('lot', 100);
  if (lot !== undefined && type && !ASSET_TYPES.has(type)) problem('lot', `lot names the lot a buy or transfer in opens, or the one a sell or transfer out takes from; a ${type} takes from no lot: leave it empty`, lot);

  let amount: number | undefined;
  const amountAllowed = 'what was paid or received for the row, a number of 0 or more such as 12500 or 12,500.00 (the type says the direction: a sale\'s proceeds are positive)';
  if (cellText(v.amount) === undefined) problem('amount', `amount is required: ${amountAllowed}`);
  else amount = check('amount', notNegative(readNumber(v.amount, mark('amount'))), `amount must be ${amountAllowed}`);

  const currencyText = cellText(v.currency)?.toUpperCase();
  let currency: string | undefined;
  if (currencyText === undefined) {
    currency = rules.currency;
    if (!currency) problem('currency', 'currency is required: the ISO 4217 code of amount, such as USD, EUR, GBP, CHF, HKD or JPY');
  } else if (isCurrencyCode(currencyText)) currency = currencyText;
  else problem('currency', 'currency must be an ISO 4217 code such as USD, EUR, GBP, CHF, HKD or JPY', currencyText);

  const notes = text('notes', 2000, true);

  // A lot's cover is stated on the row that opens it; a sale, fee or income opens none.
  let cover = readCover(record, portfolio, mark('insured_value'));
  const coverCells = COVER_COLUMNS.filter((c) => cellText(v[c]) !== undefined);
  if (type && !OPENING_TYPES.has(type) && coverCells.length > 0) {
    const misplaced = rowReader(record, portfolio);
    for (const c of coverCells) misplaced.problem(c, `${c} belongs on the row that opens a lot (buy or transfer_in); a ${type} opens none, so it is not read; the row is still read`, v[c]);
    cover = { problems: misplaced.problems, refused: false };
  }

  const refused = () => ({ problems: [...problems, ...cover.problems].map(toLedgerProblem) });
  if (problems.length > 0 || !date || !type || amount === undefined || !currency) return refused();
  if (ASSET_TYPES.has(type) && (!assetId || quantity === undefined)) return refused();
  const entry: LedgerEntry = { portfolio, date, type, amount, currency, source: { ...record.source } };
  if (assetId) entry.assetId = assetId;
  if (asset) entry.asset = asset;
  if (quantity !== undefined) entry.quantity = quantity;
  if (units?.unit !== undefined) entry.unit = units.unit;
  if (units?.stock !== undefined) entry.stock = units.stock;
  if (lot !== undefined) entry.lot = lot;
  if (notes !== undefined) entry.notes = notes;
  if (cover.cover) entry.cover = cover.cover;
  if (cover.refused) entry.coverRefused = true;
  return { entry, ...(cover.problems.length > 0 ? { coverProblems: cover.problems.map(toLedgerProblem) } : {}) };
}

function positive(read: Read<number>, max: number): Read<number> {
  if (!read || 'error' in read) return read;
  return read.value <= 0 || read.value > max ? { error: 'out of range' } : read;
}

function notNegative(read: Read<number>): Read<number> {
  if (!read || 'error' in read) return read;
  return read.value < 0 || read.value > Number.MAX_SAFE_INTEGER ? { error: 'out of range' } : read;
}

/** A holdings-style row problem as a ledger problem: the value found is said in the reason. */
function toLedgerProblem(p: RowProblem): LedgerProblem {
  return {
    portfolio: p.portfolio,
    source: { file: p.file, ...(p.sheet !== undefined ? { sheet: p.sheet } : {}), row: p.row ?? 0 },
    field: p.field,
    reason: p.value !== undefined ? `${p.reason} (found "${p.value}")` : p.reason,
  };
}

/** "ledger.csv row 4 (sheet March), amount: amount must be …": a problem on one line, for stderr and notes. */
export function describeLedgerProblem(p: LedgerProblem): string {
  return `${p.source.file}${p.source.sheet ? ` (sheet ${p.source.sheet})` : ''} row ${p.source.row}, ${p.field}: ${p.reason}`;
}

/**
 * A holdings file as a ledger: each holding a buy on its purchase date, of its quantity, its
 * purchase price the amount, in its currency (`currency`, the report's, when it names none),
 * the holding's row kept as the source. The holdings a run reads are unchanged.
 */
export function holdingsAsLedger(portfolios: readonly PortfolioInput[], currency: string): LedgerEntry[] {
  return portfolios.flatMap((p) => p.holdings.map((h) => holdingAsBuy(h, currency)));
}

export function holdingAsBuy(h: Holding, currency: string): LedgerEntry {
  const entry: LedgerEntry = {
    portfolio: h.portfolio,
    date: h.purchaseDate,
    type: 'buy',
    assetId: h.assetId,
    quantity: h.quantity,
    amount: h.purchasePrice,
    currency: h.currency ?? currency,
    source: { ...h.source },
    asset: {
      segment: h.segment,
      brand: h.brand,
      model: h.model,
      byId: h.assetIdGiven === true,
      ...(h.reference !== undefined ? { reference: h.reference } : {}),
      ...(h.year !== undefined ? { year: h.year } : {}),
      ...(h.size !== undefined ? { size: h.size } : {}),
    },
  };
  if (h.notes !== undefined) entry.notes = h.notes;
  if (h.lot !== undefined) entry.lot = h.lot;
  // A holding counts the service's unit (a wine without a size: cases), so a sale by the bottle can take from it.
  const units = rowUnits(h.segment, h.assetId, h.size, undefined);
  if ('unit' in units && units.unit !== undefined) entry.unit = units.unit;
  if ('stock' in units && units.stock !== undefined) entry.stock = units.stock;
  return entry;
}

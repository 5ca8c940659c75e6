import { singleLine } from '../single-line';
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { DecimalMark } from './amounts';
import { HOLDINGS_VOCABULARY, closestHeader, type Column, type Vocabulary } from './columns';
import { describeCloseMisses, namesHeader, sortUnknownHeaders } from './unknown-columns';
import { readCsv } from './formats/csv';
import { readJson } from './formats/json';
import { readXlsx } from './formats/xlsx';
import type { RawTable } from './formats/table';
import { decimalMarks, toHolding, type HoldingRules } from './holding';
import { checkFileSize } from './limits';
import { InputError, type PortfolioInput, type RowProblem } from './types';
import { cellText } from './cells';
import { PortfolioLanguages } from './language';

export interface LoadResult {
  /** Portfolios with at least one readable holding. */
  portfolios: PortfolioInput[];
  /**
   * Portfolios of which not one row could be read, while others could: no report is written for
   * them, the others' are (the run ends with exit 3). When no portfolio has a readable row, the
   * load throws instead.
   */
  unreadable: { name: string; message: string }[];
  /** Headers that resemble no column, per table, and --ignore-column names that match none: shown as warnings. */
  warnings: string[];
}

export interface LoadRules extends Omit<HoldingRules, 'decimalMarks'> {
  /** The files' declared decimal mark (--decimal-comma); without it each column's own is detected. */
  decimalMark?: DecimalMark;
  /** Headers to leave out on purpose (--ignore-column, ignore_columns), though they resemble a column. */
  ignoreColumns?: readonly string[];
  /** A file's tables when the caller has read them already (the run's sorting of holdings from transactions files): each file is read once. */
  tablesOf?: (file: string) => Promise<RawTable[]>;
  /** Where the portfolios' languages are gathered, when the caller reads transactions files too (one language per portfolio across both). */
  languages?: PortfolioLanguages;
}

/**
 * Reads holdings files into portfolios. One file is one portfolio named after the file,
 * unless a `portfolio` column (or a workbook's sheets, or a JSON `portfolios` map) splits it.
 * Bad rows become problems of their portfolio; a file that cannot be read, lacks a required
 * column or has a header a slip away from a column throws InputError (exit 2, before any call is
 * spent), as does input where not one row can be read. A portfolio without a readable row beside
 * others that have some is returned as unreadable, for the run to report and go on. Headers left out are warnings and each portfolio's readNotes.
 */
export async function loadHoldings(files: readonly string[], rules: LoadRules): Promise<LoadResult> {
  if (files.length === 0) throw new InputError('give at least one holdings file (.csv, .xlsx or .json)');
  const byName = new Map<string, PortfolioInput>();
  const warnings: string[] = [];
  const notesByFile = new Map<string, string[]>();
  /** Files of which not one row was read: their portfolios are named by the file. */
  const unreadFiles = new Set<string>();
  const allHeaders: string[] = [];
  const languages = rules.languages ?? new PortfolioLanguages();
  for (const file of files) {
    let read = 0;
    const refused: RowProblem[] = [];
    for (const table of await (rules.tablesOf ?? readTables)(file)) {
      checkColumns(table);
      allHeaders.push(...table.unknownHeaders);
      const notes = unreadColumns(table, rules.ignoreColumns ?? []);
      warnings.push(...notes.warnings);
      notesByFile.set(file, [...(notesByFile.get(file) ?? []), ...notes.notes]);
      const tableRules: HoldingRules = { asOf: rules.asOf, decimalMarks: decimalMarks(table.records, rules.decimalMark) };
      for (const record of table.records) {
        // A client's name typed on two lines is one name on one line.
        const name = singleLine(cellText(record.values.portfolio) ?? table.portfolio);
        let portfolio = byName.get(name);
        if (!portfolio) byName.set(name, (portfolio = { name, files: [], holdings: [], problems: [] }));
        if (!portfolio.files.includes(file)) portfolio.files.push(file);
        languages.note(record, name);
        const result = toHolding(record, name, tableRules);
        if ('holding' in result) {
          portfolio.holdings.push(result.holding);
          // A bad cover cell: said by row and field, the holding still valued.
          portfolio.problems.push(...(result.coverProblems ?? []));
          read++;
        } else {
          portfolio.problems.push(...result.problems);
          refused.push(...result.problems.slice(0, 1));
        }
      }
    }
    if (read === 0 && refused.length > 0) unreadFiles.add(file);
  }
  const portfolios = [...byName.values()];
  for (const p of portfolios) {
    const notes = p.files.flatMap((f) => notesByFile.get(f) ?? []);
    if (notes.length > 0) p.readNotes = notes;
    const language = languages.of(p.name);
    if (language) p.language = language;
  }
  for (const name of rules.ignoreColumns ?? []) {
    if (!namesHeader(name, allHeaders)) warnings.push(`"${name}" (--ignore-column or ignore_columns) names no unread column of ${files.join(', ')}; it changes nothing`);
  }
  // A file, or a portfolio column's client, with only bad rows: one unreadable portfolio does not stop the others.
  const unreadable = portfolios
    .filter((p) => p.holdings.length === 0 && p.problems.length > 0)
    .map((p) => ({ name: p.name, message: noRowRead(p.files.length === 1 && unreadFiles.has(p.files[0]!) ? p.files[0]! : `portfolio "${p.name}" in ${p.files.join(', ')}`, p.problems) }));
  const readable = portfolios.filter((p) => p.holdings.length > 0);
  if (readable.length === 0 && unreadable.length > 0) throw new InputError(unreadable.map((u) => u.message).join('\n'));
  if (readable.length === 0) throw new InputError(`no holdings found in ${files.join(', ')}`);
  return { portfolios: readable, unreadable, warnings };
}

/** The columns without which no row can be read; each entry is satisfied by any one of its columns. */
const REQUIRED: { any: Column[]; unlessAssetId: boolean }[] = [
  { any: ['segment'], unlessAssetId: true },
  { any: ['brand', 'producer', 'artist'], unlessAssetId: true },
  { any: ['model', 'title', 'reference'], unlessAssetId: true },
  { any: ['purchase_price'], unlessAssetId: false },
  { any: ['purchase_date'], unlessAssetId: false },
];

/** The file, and the sheet when a workbook has several: how messages name a table. */
export const tableName = (table: RawTable) => `${table.file}${table.sheet ? ` (sheet ${table.sheet})` : ''}`;

/** A table without a required column, or with two headers for one column, is refused whole, naming them. */
function checkColumns(table: RawTable): void {
  const where = tableName(table);
  if (table.duplicates.length > 0) throw new InputError(`${where}: ${table.duplicates.join('; ')}`);
  if (table.records.length === 0) return;
  if (!table.recognised) {
    throw new InputError(`${where} has no segment or asset_id column${suggestion('segment', table)}; columns are described in docs/report-job.md`);
  }
  const hasAssetId = table.columns.includes('asset_id');
  const missing = REQUIRED.filter((r) => !(r.unlessAssetId && hasAssetId) && !r.any.some((c) => table.columns.includes(c)));
  if (missing.length === 0) return;
  const named = missing.map((r) => `${r.any[0]}${r.any.length > 1 ? ` (or ${r.any.slice(1).join(', or ')})` : ''} column${suggestion(r.any[0]!, table)}`);
  const found = [...table.columns, ...table.unknownHeaders];
  throw new InputError(`${where} has no ${named.join('; no ')}: every holding needs it. Columns found: ${found.join(', ') || 'none'}; they are described in docs/report-job.md`);
}

/**
 * The table's unread headers: a close miss stops the run (its values would silently change the
 * figures); the others are left out with a warning and an analyst's note, those left out on
 * purpose with a note only.
 */
export function unreadColumns(table: RawTable, ignore: readonly string[], vocabulary: Vocabulary = HOLDINGS_VOCABULARY): { warnings: string[]; notes: string[] } {
  if (table.records.length === 0 || table.unknownHeaders.length === 0) return { warnings: [], notes: [] };
  const where = tableName(table);
  const sorted = sortUnknownHeaders(table.unknownHeaders, ignore, vocabulary);
  if (sorted.closeMisses.length > 0) {
    throw new InputError(
      describeCloseMisses(where, sorted.closeMisses, (h) => `leave it out on purpose with --ignore-column "${h}" (or "ignore_columns": ["${h}"] in the config file); columns are described in docs/report-job.md`),
    );
  }
  const quoted = (hs: readonly string[]) => hs.map((h) => `"${h}"`).join(', ');
  const warnings = sorted.unrelated.length > 0 ? [`${where}: ignored unknown column(s) ${sorted.unrelated.join(', ')}`] : [];
  const notes = [
    ...(sorted.unrelated.length > 0 ? [`${where}: column(s) ${quoted(sorted.unrelated)} resemble no column the reports read and were left out.`] : []),
    ...(sorted.ignored.length > 0 ? [`${where}: column(s) ${quoted(sorted.ignored)} were left out as asked (--ignore-column or ignore_columns).`] : []),
  ];
  return { warnings, notes };
}

export function suggestion(column: Column, table: RawTable, vocabulary: Vocabulary = HOLDINGS_VOCABULARY): string {
  const near = closestHeader(column, table.unknownHeaders, vocabulary);
  return near ? ` (did you mean "${near}" → ${column}?)` : '';
}

/** Every row of the file was refused: a report of it would show nothing but zeros. */
function noRowRead(what: string, refused: readonly RowProblem[]): string {
  const first = refused.slice(0, 3).map((p) => `row ${p.row}${p.sheet ? ` (sheet ${p.sheet})` : ''}, ${p.field}: ${p.reason}${p.value !== undefined ? ` (found "${p.value}")` : ''}`);
  const more = refused.length > 3 ? `; and ${refused.length - 3} more row${refused.length - 3 === 1 ? '' : 's'}` : '';
  return `no row of ${what} could be read, so no report is written for it: ${first.join('; ')}${more}`;
}

/** A file's tables, read with the columns of its kind (holdings by default); a file that cannot be read throws InputError. */
export async function readTables(file: string, vocabulary: Vocabulary = HOLDINGS_VOCABULARY): Promise<RawTable[]> {
  const ext = extname(file).toLowerCase();
  const portfolio = basename(file, extname(file));
  if (!['.csv', '.txt', '.tsv', '.json', '.xlsx', '.xlsm'].includes(ext)) {
    throw new InputError(`${file}: unsupported file type '${ext || '(none)'}'; use .csv, .xlsx or .json`);
  }
  await checkFileSize(file);
  let content: Buffer;
  try {
    content = await readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : (e as Error).message;
    throw new InputError(`cannot read ${vocabulary.noun} file ${file}: ${why}`);
  }
  if (ext === '.json') return readJson(content.toString('utf8'), file, portfolio, vocabulary);
  if (ext === '.xlsx' || ext === '.xlsm') return readXlsx(content, file, portfolio, vocabulary);
  return readCsv(content.toString('utf8'), file, portfolio, vocabulary);
}

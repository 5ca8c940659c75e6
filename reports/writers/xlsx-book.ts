/**
 * A streaming exceljs workbook with the house look: sheets with page setup (fit to width, the
 * header row repeated on every printed page), running header (client, sandbox marker, date) and
 * "Page n of N" footer, navy header rows, document properties (title, subject, author,
 * company), and charts and Excel tables collected for xlsx-charts.ts / xlsx-package.ts to add
 * once the workbook is written.
 */
import { promises as fs } from 'node:fs';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { writeAtomically } from './atomic-write';
import { abandonableStream } from './abandonable-stream';
import type { ValueKind } from './holding-columns';
import { addChartsToXlsx, type PlacedChart } from './xlsx-charts';
import { SheetCursor } from './xlsx-cells';
import { finishPackage, referToTable, type SheetTable } from './xlsx-package';
import { cellStyles, themedStyles, type ThemedStyles } from './xlsx-styles';
import type { Brand } from '../../src/brand';
import { addPictures, type PlacedPicture } from './xlsx-brand';
import { themeOf, type Theme } from './brand-theme';
import { translator, type Translator } from '../../src/i18n';

export interface BookMeta {
  /** Footer reference (report id). */
  reference: string;
  sandbox: boolean;
  /** Amounts converted with an illustrative rates file: every printed page says so, as for sandbox data. */
  illustrativeRates?: boolean;
  currency: string;
  creator: string;
  created: Date;
  /** Document properties: title and subject (core.xml), company (app.xml, the firm). */
  title?: string;
  subject?: string;
  company?: string;
  /** Left of every printed page's header (the client) and right of it (e.g. "As of 2026-10-31"). */
  headerLeft?: string;
  headerRight?: string;
  /** A firm's brand (issue 28): its colours in headers and charts, its logo on the Summary sheet. */
  brand?: Brand;
  /** Document properties' keywords (core.xml). */
  keywords?: string;
  /** The document's language (issue 36): its words in headers and footers, and core.xml's dc:language. Default English. */
  tr?: Translator;
}

/** The words every printed sheet carries when its figures are not real (as data-marks.ts's pageMarks, in the book's language). */
function pageMarks(m: BookMeta, tr: Translator): string[] {
  return [...(m.sandbox ? [tr.t('xlsx.mark_sandbox')] : []), ...(m.illustrativeRates ? [tr.t('xlsx.mark_illustrative')] : [])];
}

/**
 * A sheet name Excel accepts: at most 31 characters, none of []:*?/\, not starting or ending
 * with an apostrophe, and unique in the book (case-insensitively, as Excel compares them). A
 * translation is shortened rather than refused: the pseudo-locale's and some languages' are long.
 */
export function excelSheetName(wanted: string, taken: readonly string[]): string {
  const clean = wanted.replace(/[[\]:*?/\\]/g, ' ').replace(/^'+|'+$/g, '').trim() || 'Sheet';
  const used = new Set(taken.map((t) => t.toLowerCase()));
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '' : ` (${n})`;
    const chars = [...clean];
    const name = (chars.length + suffix.length > 31 ? chars.slice(0, 31 - suffix.length).join('').trimEnd() : clean) + suffix;
    if (!used.has(name.toLowerCase())) return name;
  }
}

/** Text for an Excel header or footer section: "&" starts a code there, so it is doubled. */
const headerText = (s: string) => s.replace(/&/g, '&&');

/** Column letter of a 1-based column number. */
export function columnLetter(n: number): string {
  return n <= 26 ? String.fromCharCode(64 + n) : columnLetter(Math.floor((n - 1) / 26)) + String.fromCharCode(65 + ((n - 1) % 26));
}

export class XlsxBook {
  readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  readonly styles: Record<ValueKind, Partial<ExcelJS.Style>>;
  /** The house's or the firm's colours, and the styles drawn in them. */
  readonly theme: Theme;
  readonly look: ThemedStyles;
  readonly charts: PlacedChart[] = [];
  readonly tables: SheetTable[] = [];
  /** Sheets with a header row, repeated at the top of every printed page. */
  readonly printTitles: [number, string][] = [];
  /** Pictures (the firm's logo) added to the package after the sheets are written. */
  readonly pictures: PlacedPicture[] = [];
  private readonly sheetNames: string[] = [];
  /** The names asked for, to the names written (Excel's limits may shorten them). */
  private readonly sheetNameOf = new Map<string, string>();
  readonly tr: Translator;
  private readonly headers = new Map<SheetCursor, string[]>();

  constructor(
    output: Writable,
    readonly meta: BookMeta,
  ) {
    // Inline strings (no shared-string table): nothing accumulates in memory per row.
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: output,
      useStyles: true,
      useSharedStrings: false,
      // Fast deflate: the sheet XML is very repetitive, so level 1 costs little size and much less time.
      zip: { zlib: { level: 1 } },
    });
    this.tr = meta.tr ?? translator('en');
    this.workbook.creator = meta.creator;
    // exceljs writes these core properties from the workbook object itself (CoreXform), but types neither.
    Object.assign(this.workbook, { language: this.tr.lang, ...(meta.keywords ? { keywords: meta.keywords } : {}) });
    this.workbook.lastModifiedBy = meta.creator;
    if (meta.title) this.workbook.title = meta.title;
    if (meta.subject) this.workbook.subject = meta.subject;
    if (meta.company) this.workbook.company = meta.company;
    // exceljs throws on an invalid date when it writes docProps/core.xml.
    this.workbook.created = Number.isNaN(meta.created.getTime()) ? new Date() : meta.created;
    this.workbook.modified = this.workbook.created;
    this.styles = cellStyles(meta.currency);
    this.theme = themeOf(meta.brand);
    this.look = themedStyles(this.theme);
  }

  /** Adds the next sheet; sheets are written (and numbered) in the order they are added. */
  sheet(wanted: string, widths: number[], frozenHeader: boolean, landscape = false): SheetCursor {
    const name = excelSheetName(wanted, this.sheetNames);
    this.sheetNameOf.set(wanted, name);
    this.sheetNames.push(name);
    if (frozenHeader) this.printTitles.push([this.sheetNames.length - 1, name]);
    const m = this.meta;
    const sheet = this.workbook.addWorksheet(name, {
      views: frozenHeader ? [{ state: 'frozen', ySplit: 1, xSplit: 0 }] : [{ showGridLines: false }],
      pageSetup: { orientation: landscape ? 'landscape' : 'portrait', fitToPage: true, fitToWidth: 1, fitToHeight: 0, paperSize: 9 },
      headerFooter: {
        oddHeader:
          (m.headerLeft ? `&L${headerText(m.headerLeft)}` : '') +
          (pageMarks(m, this.tr).length > 0 ? `&C&"Calibri,Bold"&KFF0000${headerText(this.tr.t('xlsx.marks_not_for_clients', { marks: pageMarks(m, this.tr).join(' · ') }))}` : '') +
          (m.headerRight ? `&R${headerText(m.headerRight)}` : ''),
        oddFooter: `&L${headerText(m.reference)}&R${headerText(this.tr.t('xlsx.page_of', { page: '\u0000P', pages: '\u0000N' })).replace(/\u0000/g, '&')}`,
      },
    });
    sheet.columns = widths.map((width) => ({ width }));
    return new SheetCursor(sheet, (kind) => this.styles[kind]);
  }

  /** The name a sheet added as `wanted` was written under (the one formulas and charts must quote). */
  sheetName(wanted: string): string {
    const name = this.sheetNameOf.get(wanted);
    if (name === undefined) throw new Error(`internal: no sheet named ${wanted}`);
    return name;
  }

  /** 1-based number of a sheet already added (exceljs writes xl/worksheets/sheet{n}.xml), by the name it was asked for. */
  sheetNumber(name: string): number {
    const i = this.sheetNames.indexOf(this.sheetNameOf.get(name) ?? name);
    if (i < 0) throw new Error(`internal: no sheet named ${name}`);
    return i + 1;
  }

  header(cursor: SheetCursor, labels: string[]): void {
    this.headers.set(cursor, labels);
    cursor.add(labels.map((value) => ({ value, style: this.look.header })), { height: 30 });
  }

  /**
   * Makes the sheet's rows so far, under its header row, an Excel table named `name` (screen
   * readers, Power Query and Excel's own sorting see a table); use instead of an autoFilter.
   */
  table(cursor: SheetCursor, sheetName: string, name: string): void {
    const columns = this.headers.get(cursor);
    if (!columns) throw new Error(`internal: the ${sheetName} sheet has no header row for a table`);
    if (cursor.sheet.autoFilter) throw new Error(`internal: the ${sheetName} sheet has an autoFilter; its table filters it`);
    this.tables.push({ sheetNumber: this.sheetNumber(sheetName), sheetName: this.sheetName(sheetName), name, columns, lastRow: cursor.row, lastColumn: columnLetter(columns.length) });
    referToTable(cursor.sheet, this.tables.length);
  }
}

/**
 * Writes a workbook atomically: `build` fills the book (streaming to a raw file next to the
 * target), then the charts are added while copying it to the temporary name that is renamed.
 */
export async function writeXlsxBook(filePath: string, meta: BookMeta, build: (book: XlsxBook) => Promise<void>): Promise<void> {
  await writeAtomically(filePath, async (tempPath) => {
    const rawPath = `${tempPath}.raw`;
    // Our own stream, so a failure can close it before the raw file is removed (abandonableStream).
    const raw = abandonableStream(rawPath);
    try {
      const book = new XlsxBook(raw.stream, meta);
      try {
        await build(book);
        await book.workbook.commit();
      } catch (err) {
        await raw.abandon();
        throw err;
      }
      // A chart's ranges quote the name its sheet was written under (a translation may have been shortened).
      const charts = book.charts.map((c) => ({ ...c, spec: { ...c.spec, sheetName: book.sheetName(c.spec.sheetName) } }));
      await addChartsToXlsx(rawPath, tempPath, charts, async (zip) => {
        await addPictures(zip, book.pictures);
        await finishPackage(zip, { tables: book.tables, printTitles: book.printTitles, company: meta.company, date: book.workbook.created });
      }, book.tr);
    } finally {
      await fs.rm(rawPath, { force: true });
    }
  });
}

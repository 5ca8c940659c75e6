/**
 * A streaming exceljs workbook with the house look: sheets with page setup, running header
 * (sandbox marker) and "Page n of N" footer, navy header rows, and charts collected for
 * xlsx-charts.ts to add once the workbook is written.
 */
import { promises as fs } from 'node:fs';
import ExcelJS from 'exceljs';
import { writeAtomically } from './atomic-write';
import type { ValueKind } from './holding-columns';
import { addChartsToXlsx, type PlacedChart } from './xlsx-charts';
import { SheetCursor } from './xlsx-cells';
import { HEADER_STYLE, cellStyles } from './xlsx-styles';

export interface BookMeta {
  /** Footer reference (report id). */
  reference: string;
  sandbox: boolean;
  currency: string;
  creator: string;
  created: Date;
}

/** Column letter of a 1-based column number. */
export function columnLetter(n: number): string {
  return n <= 26 ? String.fromCharCode(64 + n) : columnLetter(Math.floor((n - 1) / 26)) + String.fromCharCode(65 + ((n - 1) % 26));
}

export class XlsxBook {
  readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  readonly styles: Record<ValueKind, Partial<ExcelJS.Style>>;
  readonly charts: PlacedChart[] = [];
  private readonly sheetNames: string[] = [];

  constructor(
    filePath: string,
    readonly meta: BookMeta,
  ) {
    // Inline strings (no shared-string table): nothing accumulates in memory per row.
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      filename: filePath,
      useStyles: true,
      useSharedStrings: false,
      // Fast deflate: the sheet XML is very repetitive, so level 1 costs little size and much less time.
      zip: { zlib: { level: 1 } },
    });
    this.workbook.creator = meta.creator;
    // exceljs throws on an invalid date when it writes docProps/core.xml.
    this.workbook.created = Number.isNaN(meta.created.getTime()) ? new Date() : meta.created;
    this.styles = cellStyles(meta.currency);
  }

  /** Adds the next sheet; sheets are written (and numbered) in the order they are added. */
  sheet(name: string, widths: number[], frozenHeader: boolean, landscape = false): SheetCursor {
    this.sheetNames.push(name);
    const sheet = this.workbook.addWorksheet(name, {
      views: frozenHeader ? [{ state: 'frozen', ySplit: 1, xSplit: 0 }] : [{ showGridLines: false }],
      pageSetup: { orientation: landscape ? 'landscape' : 'portrait', fitToPage: true, fitToWidth: 1, fitToHeight: 0, paperSize: 9 },
      headerFooter: {
        oddHeader: this.meta.sandbox ? '&C&"Calibri,Bold"&KFF0000SANDBOX DATA — not for client use' : '',
        oddFooter: `&L${this.meta.reference.replace(/&/g, '&&')}&RPage &P of &N`,
      },
    });
    sheet.columns = widths.map((width) => ({ width }));
    return new SheetCursor(sheet, (kind) => this.styles[kind]);
  }

  /** 1-based number of a sheet already added (exceljs writes xl/worksheets/sheet{n}.xml). */
  sheetNumber(name: string): number {
    const i = this.sheetNames.indexOf(name);
    if (i < 0) throw new Error(`internal: no sheet named ${name}`);
    return i + 1;
  }

  header(cursor: SheetCursor, labels: string[]): void {
    cursor.add(labels.map((value) => ({ value, style: HEADER_STYLE })), { height: 30 });
  }
}

/**
 * Writes a workbook atomically: `build` fills the book (streaming to a raw file next to the
 * target), then the charts are added while copying it to the temporary name that is renamed.
 */
export async function writeXlsxBook(filePath: string, meta: BookMeta, build: (book: XlsxBook) => Promise<void>): Promise<void> {
  await writeAtomically(filePath, async (tempPath) => {
    const rawPath = `${tempPath}.raw`;
    try {
      const book = new XlsxBook(rawPath, meta);
      await build(book);
      await book.workbook.commit();
      await addChartsToXlsx(rawPath, tempPath, book.charts);
    } finally {
      await fs.rm(rawPath, { force: true });
    }
  });
}

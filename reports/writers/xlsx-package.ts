/**
 * The last touches to a workbook's package that exceljs's streaming writer cannot make, applied
 * while xlsx-charts.ts copies the zip (the large sheets copied still compressed): Excel tables
 * (ListObjects) over data ranges, so screen readers and Power Query see a table with a header row; the company in docProps/app.xml; the
 * rows repeated at the top of each printed page; and one fixed timestamp on every zip entry, so
 * a fixed generated_at (SOURCE_DATE_EPOCH) gives a byte-identical file.
 */
import type JSZip from 'jszip';
import { xmlEscape } from './xml-escape';

export interface SheetTable {
  /** 1-based sheet number (xl/worksheets/sheet{n}.xml). */
  sheetNumber: number;
  sheetName: string;
  /** Table name, unique in the workbook: letters, digits and underscores. */
  name: string;
  /** Header cells, left to right: the table's column names. */
  columns: string[];
  /** Last row of the table (its header is row 1); at least 2. */
  lastRow: number;
  lastColumn: string;
}

export interface PackageExtras {
  tables: SheetTable[];
  /** Sheets whose first row is repeated on every printed page: [0-based sheet index, sheet name]. */
  printTitles: [number, string][];
  company?: string;
  /** Timestamp for every zip entry. */
  date: Date;
}

const CT_TABLE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml';
const REL_TABLE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/table';

/** Table column names must be unique (case-insensitively) and non-empty. */
function uniqueNames(labels: string[]): string[] {
  const seen = new Set<string>();
  return labels.map((label, i) => {
    let name = label.trim() || `Column ${i + 1}`;
    for (let k = 2; seen.has(name.toLowerCase()); k++) name = `${label.trim() || 'Column'} ${k}`;
    seen.add(name.toLowerCase());
    return name;
  });
}

function tableXml(id: number, t: SheetTable): string {
  const ref = `A1:${t.lastColumn}${Math.max(t.lastRow, 2)}`;
  const cols = uniqueNames(t.columns).map((c, i) => `<tableColumn id="${i + 1}" name="${xmlEscape(c)}"/>`).join('');
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n` +
    `<table xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" id="${id}" name="${t.name}" displayName="${t.name}" ref="${ref}" headerRowCount="1" totalsRowShown="0">` +
    `<autoFilter ref="${ref}"/><tableColumns count="${t.columns.length}">${cols}</tableColumns>` +
    `<tableStyleInfo name="TableStyleLight1" showFirstColumn="0" showLastColumn="0" showRowStripes="1" showColumnStripes="0"/></table>`
  );
}

async function text(zip: JSZip, name: string): Promise<string> {
  const f = zip.file(name);
  if (!f) throw new Error(`internal: ${name} is missing from the workbook`);
  return f.async('string');
}

/** What of exceljs's streaming worksheet writer (4.x) a table reference needs; not in its typings. */
interface StreamedSheetInternals {
  _sheetRelsWriter: { addRelationship(rel: { Type: string; Target: string }): string };
  _write(text: string): void;
  _writeCloseWorksheet(): void;
}

/**
 * Makes a streamed worksheet refer to table part `tableNumber` as exceljs writes it: the
 * relationship goes into the sheet's rels as they stream, and <tableParts> is written just before
 * </worksheet> (nothing exceljs writes may follow it). Editing the sheet afterwards meant holding
 * its whole XML in memory (hundreds of MB for 100,000 holdings) and compressing it again.
 * Call before the sheet is committed; a table sheet has no sheet-level autoFilter.
 */
export function referToTable(sheet: unknown, tableNumber: number): void {
  const internals = sheet as StreamedSheetInternals;
  if (typeof internals._sheetRelsWriter?.addRelationship !== 'function' || typeof internals._writeCloseWorksheet !== 'function') {
    throw new Error('internal: this exceljs version streams worksheets differently; the table cannot be added');
  }
  const relId = internals._sheetRelsWriter.addRelationship({ Type: REL_TABLE, Target: `../tables/table${tableNumber}.xml` });
  const close = internals._writeCloseWorksheet.bind(internals);
  internals._writeCloseWorksheet = () => {
    internals._write(`<tableParts count="1"><tablePart r:id="${relId}"/></tableParts>`);
    close();
  };
}

export async function finishPackage(zip: JSZip, extras: PackageExtras): Promise<void> {
  const overrides: string[] = [];
  // The sheets refer to their tables already (referToTable): only the table parts are added here.
  for (const [k, t] of extras.tables.entries()) {
    const id = k + 1;
    zip.file(`xl/tables/table${id}.xml`, tableXml(id, t));
    overrides.push(`<Override PartName="/xl/tables/table${id}.xml" ContentType="${CT_TABLE}"/>`);
  }
  if (overrides.length > 0) zip.file('[Content_Types].xml', (await text(zip, '[Content_Types].xml')).replace('</Types>', `${overrides.join('')}</Types>`));

  if (extras.printTitles.length > 0) {
    const names = extras.printTitles.map(([index, name]) => `<definedName name="_xlnm.Print_Titles" localSheetId="${index}">'${xmlEscape(name.replace(/'/g, "''"))}'!$1:$1</definedName>`).join('');
    let workbook = await text(zip, 'xl/workbook.xml');
    workbook = workbook.includes('<definedNames>')
      ? workbook.replace('<definedNames>', `<definedNames>${names}`)
      : workbook.replace(/<\/sheets>/, `</sheets><definedNames>${names}</definedNames>`);
    zip.file('xl/workbook.xml', workbook);
  }

  if (extras.company) {
    const app = await text(zip, 'docProps/app.xml');
    zip.file('docProps/app.xml', app.replace(/<Company>[^<]*<\/Company>|<Company\/>/, '').replace('</Properties>', `<Company>${xmlEscape(extras.company)}</Company></Properties>`));
  }

  zip.forEach((_, file) => {
    file.date = extras.date;
  });
}

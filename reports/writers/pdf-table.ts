/**
 * A table that flows across pages with its header repeated on each page. Cells hold one main
 * line and optionally a smaller grey second line (e.g. the asset id under a description).
 * Tagged as a real table (Table, TR, TH with column scope, TD); the header repeated on later
 * pages, row shading and rules are artifacts, so a screen reader reads the header once.
 */
import { PALETTE } from './palette';
import { drawOneLine, fitFontSize, hex, type PdfPages } from './pdf-layout';
import { unbrokenWords } from './pdf-layout-trace';

/** The smallest size a cell's text shrinks to so that its widest word fits. */
const MIN_CELL_SIZE = 5.5;

/**
 * The size a cell's main text is drawn at: the table's, or smaller when a word of it (or the text
 * itself, one piece: "+1690.9 %", "$20,416,460") is wider than the cell — pdfkit would cut the word
 * between two letters ("Luxushandt|aschen"), or part a number from its "%". The rest wraps between words.
 */
function cellSize(doc: PDFKit.PDFDocument, text: string, width: number, size: number): number {
  const words = unbrokenWords(text);
  if (words.length === 0) return size;
  const widest = words.reduce((a, b) => (doc.fontSize(size).widthOfString(b) > doc.widthOfString(a) ? b : a));
  return fitFontSize(doc, widest, width, size, MIN_CELL_SIZE);
}

export interface PdfColumn {
  label: string;
  width: number;
  align?: 'left' | 'right' | 'center';
}

export interface PdfCell {
  text: string;
  sub?: string;
  colour?: string;
  bold?: boolean;
}

export type PdfRow = (string | PdfCell)[];

export interface TableOptions {
  fontSize?: number;
  /** Rows drawn bold on a tinted band (totals). */
  totalRow?: PdfRow;
  zebra?: boolean;
  /** A subheading drawn on the same page as the table's header and first row, never alone at a page's foot. */
  heading?: string;
}

/** The height a subheading takes (pdf-layout's subheading: 10 pt capitals and a short gap), with room to spare. */
const SUBHEADING_HEIGHT = 24;

const PAD = 3;

/** Control characters (tabs, line breaks from the input) would print as boxes or break rows: spaces instead. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

function cell(c: string | PdfCell): PdfCell {
  const full = typeof c === 'string' ? { text: c } : c;
  return { ...full, text: printable(full.text), sub: full.sub === undefined ? undefined : printable(full.sub) };
}

export function drawTable(pages: PdfPages, columns: PdfColumn[], rows: Iterable<PdfRow>, options: TableOptions = {}): void {
  const doc = pages.doc;
  const size = options.fontSize ?? 8;
  const subSize = size - 1.5;
  const headerHeight = size + 12;
  const tableWidth = columns.reduce((s, c) => s + c.width, 0);
  // pdfkit loops forever laying out text in a width of zero or less: fail loudly instead.
  const narrow = columns.find((c) => !(c.width > 2 * PAD + 4));
  if (narrow) throw new Error(`internal: PDF table column "${narrow.label}" is too narrow (${narrow.width} pt)`);
  // Columns stay in reading order (the tags); on a right-to-left page the first is drawn at the right.
  const tableX = pages.x(pages.left, tableWidth);
  const columnX = columns.map((_, i) => pages.x(pages.left + columns.slice(0, i).reduce((s, c) => s + c.width, 0), columns[i]!.width));

  /** The header row: tagged TH cells the first time, an artifact when repeated on a new page. */
  const drawHeader = (repeated: boolean) => {
    const y = doc.y;
    pages.artifact(() => doc.rect(tableX, y, tableWidth, headerHeight).fill(hex(pages.theme.primary)));
    const label = (col: PdfColumn, i: number) => () => {
      // One line by design (the header row's height): shrunk to fit a longer language's word ("スコア" in 22 pt), cut only below MIN_CELL_SIZE.
      doc.font('sansBold').fillColor('#FFFFFF');
      drawOneLine(doc, col.label, columnX[i]! + PAD, y + 6, { width: col.width - 2 * PAD, size, min: MIN_CELL_SIZE, align: pages.align(col.align) });
    };
    if (repeated) {
      pages.artifact(() => columns.forEach((col, i) => label(col, i)()), 'Pagination');
    } else {
      pages.group('TR', () => columns.forEach((col, i) => pages.tag('TH', label(col, i), { scope: 'Column' })));
    }
    doc.y = y + headerHeight;
  };

  /** A cell's second line's height (drawn in the regular face), with its gap above; 0 without one. */
  const subHeight = (c: PdfCell, w: number) => (c.sub ? doc.font('sans').fontSize(subSize).heightOfString(c.sub, { width: w }) + 1 : 0);

  /** A row's height, measured in the faces its cells are drawn in (a total row's bold, wider and wrapping sooner). */
  const rowHeight = (cells: PdfCell[], total = false) => {
    let h = 0;
    cells.forEach((c, i) => {
      const w = columns[i]!.width - 2 * PAD;
      const sub = subHeight(c, w);
      doc.font(c.bold || total ? 'sansBold' : 'sans');
      h = Math.max(h, doc.fontSize(cellSize(doc, c.text, w, size)).heightOfString(c.text || ' ', { width: w }) + sub);
    });
    return h + 2 * PAD + 2;
  };

  const drawRow = (cells: PdfCell[], index: number, total: boolean) => {
    const h = rowHeight(cells, total);
    if (doc.y + h > pages.bottom) {
      pages.continuePage();
      drawHeader(true);
    }
    const y = doc.y;
    pages.artifact(() => {
      if (total) doc.rect(tableX, y, tableWidth, h).fill(hex(PALETTE.paper));
      else if (options.zebra !== false && index % 2 === 1) doc.rect(tableX, y, tableWidth, h).fill('#FBFAF7');
    });
    pages.group('TR', () => {
      cells.forEach((c, i) => {
        const col = columns[i]!;
        const w = col.width - 2 * PAD;
        const at = columnX[i]!;
        pages.tag('TD', () => {
          // The row's height was measured from its cells: each draws within it (its height declares the box to the layout trace).
          const top = y + PAD + 1;
          const bottom = y + h - PAD - 1;
          const sub = subHeight(c, w);
          doc.font(c.bold || total ? 'sansBold' : 'sans');
          doc.fontSize(cellSize(doc, c.text, w, size)).fillColor(hex(c.colour ?? PALETTE.ink));
          doc.text(c.text, at + PAD, top, { width: w, height: bottom - sub - top, align: pages.align(col.align) });
          if (c.sub) doc.font('sans').fontSize(subSize).fillColor(hex(PALETTE.muted)).text(c.sub, at + PAD, doc.y + 1, { width: w, height: bottom - doc.y - 1, align: pages.align(col.align) });
        });
      });
    });
    pages.artifact(() => {
      doc.moveTo(tableX, y + h).lineTo(tableX + tableWidth, y + h).lineWidth(total ? 0.8 : 0.3).strokeColor(hex(total ? pages.theme.primary : PALETTE.rule)).stroke();
    });
    doc.y = y + h;
  };

  // The heading, the header and the first row (however tall) start on one page: the first row is
  // measured before anything is drawn, without reading the rest (they may be produced lazily).
  const it = rows[Symbol.iterator]();
  const first = it.next();
  const firstCells = first.done ? undefined : first.value.map(cell);
  const lead = headerHeight + Math.max(3 * (size + 10), firstCells ? rowHeight(firstCells) : 0);
  pages.ensureSpace((options.heading === undefined ? 0 : SUBHEADING_HEIGHT) + lead);
  if (options.heading !== undefined) pages.subheading(options.heading);
  pages.group('Table', () => {
    drawHeader(false);
    let i = 0;
    if (firstCells) drawRow(firstCells, i++, false);
    for (let next = it.next(); !next.done; next = it.next()) drawRow(next.value.map(cell), i++, false);
    if (options.totalRow) drawRow(options.totalRow.map(cell), i, true);
  });
  doc.x = pages.left;
  doc.y += 8;
}

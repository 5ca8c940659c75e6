/**
 * Page furniture for the PDF writers: A4 pages with a running header and a footer that says
 * "Page 3 of 7" (pages are buffered so the total is known), section titles that also go into
 * the document outline, and the text styles of the house look.
 */
import PDFDocument from 'pdfkit';
import { registerFonts } from './pdf-fonts';
import { PALETTE } from './palette';

export const A4 = { width: 595.28, height: 841.89 };
export const MARGIN = { top: 64, bottom: 60, side: 48 };

export const hex = (c: string) => `#${c}`;

/**
 * The largest font size, from `size` down to `min`, at which `text` fits `width` on one line in
 * the current font. pdfkit breaks a word wider than the box even with lineBreak: false.
 */
export function fitFontSize(doc: PDFKit.PDFDocument, text: string, width: number, size: number, min: number): number {
  let s = size;
  while (s > min && doc.fontSize(s).widthOfString(text) > width) s -= 0.5;
  return s;
}

/** `text` cut to fit `width` on one line at the current font and size, ending in an ellipsis when cut. */
export function fitText(doc: PDFKit.PDFDocument, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (doc.widthOfString(text.slice(0, mid).trimEnd() + '…') <= width) lo = mid;
    else hi = mid - 1;
  }
  return text.slice(0, lo).trimEnd() + '…';
}

export interface Furniture {
  /** Left of the running header, e.g. the portfolio name. */
  title: string;
  /** Right of the running header, e.g. "As of 31 October 2026". */
  subtitle: string;
  /** Left of the footer, e.g. the report id. */
  reference: string;
  sandbox: boolean;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export class PdfPages {
  readonly doc: PDFKit.PDFDocument;
  private outlineRoot: PDFKit.PDFOutline;

  constructor(
    readonly furniture: Furniture,
    info: { Title: string; Author?: string; Subject?: string },
  ) {
    this.doc = new PDFDocument({
      size: 'A4',
      margins: { top: MARGIN.top, bottom: MARGIN.bottom, left: MARGIN.side, right: MARGIN.side },
      bufferPages: true,
      autoFirstPage: false,
      // pdfkit cannot serialise an undefined entry (no author when no firm is configured): leave it out.
      info: { ...definedOnly(info), Creator: 'svc-report', Producer: 'svc-report (pdfkit)' },
      displayTitle: true,
      lang: 'en-GB',
    });
    registerFonts(this.doc);
    this.outlineRoot = this.doc.outline;
  }

  get left(): number {
    return this.doc.page.margins.left;
  }
  get right(): number {
    return this.doc.page.width - this.doc.page.margins.right;
  }
  get width(): number {
    return this.right - this.left;
  }
  get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** Orientation of the current page: continuation pages keep it. */
  private layout: 'portrait' | 'landscape' = 'portrait';

  addPage(layout: 'portrait' | 'landscape' = 'portrait'): void {
    this.layout = layout;
    this.doc.addPage({ size: 'A4', layout, margins: { top: MARGIN.top, bottom: MARGIN.bottom, left: MARGIN.side, right: MARGIN.side } });
    this.doc.x = this.left;
    this.doc.y = MARGIN.top;
  }

  /** Starts a new page when fewer than `height` points are left on this one. */
  ensureSpace(height: number): void {
    if (this.doc.y + height > this.bottom) this.continuePage();
  }

  /** A further page in the current orientation (tables and sections flowing on). */
  continuePage(): void {
    this.addPage(this.layout);
  }

  /** A section heading (serif, navy, gold rule) that is also an outline entry. */
  section(title: string, options: { outline?: boolean } = {}): void {
    const doc = this.doc;
    this.ensureSpace(70);
    if (options.outline !== false) this.outlineRoot.addItem(title);
    doc.x = this.left;
    doc.font('serifBold').fontSize(15).fillColor(hex(PALETTE.navy)).text(title, this.left, doc.y, { width: this.width });
    const y = doc.y + 3;
    doc.moveTo(this.left, y).lineTo(this.left + 60, y).lineWidth(1.5).strokeColor(hex(PALETTE.gold)).stroke();
    doc.y = y + 12;
  }

  subheading(title: string): void {
    this.ensureSpace(40);
    this.doc.font('sansBold').fontSize(10).fillColor(hex(PALETTE.navy)).text(title.toUpperCase(), this.left, this.doc.y, { width: this.width, characterSpacing: 0.8 });
    this.doc.moveDown(0.4);
  }

  paragraph(text: string, options: { size?: number; colour?: string; italic?: boolean } = {}): void {
    const doc = this.doc;
    doc.font('sans').fontSize(options.size ?? 9).fillColor(hex(options.colour ?? PALETTE.ink));
    const height = doc.heightOfString(text, { width: this.width, lineGap: 2 });
    this.ensureSpace(Math.min(height, 200));
    doc.text(text, this.left, doc.y, { width: this.width, lineGap: 2 });
    doc.moveDown(0.6);
  }

  /** A note standing in for an omitted section, in a tinted box. */
  note(text: string): void {
    const doc = this.doc;
    doc.font('sans').fontSize(9);
    const h = doc.heightOfString(text, { width: this.width - 20 }) + 14;
    this.ensureSpace(h + 10);
    const y = doc.y;
    doc.rect(this.left, y, this.width, h).fill(hex(PALETTE.paper));
    doc.rect(this.left, y, 2.5, h).fill(hex(PALETTE.gold));
    doc.fillColor(hex(PALETTE.muted)).text(text, this.left + 12, y + 7, { width: this.width - 20 });
    doc.y = y + h + 10;
    doc.x = this.left;
  }

  /** Running header and "Page n of N" footer on every page but the first (the cover). */
  private drawFurniture(): void {
    const doc = this.doc;
    const range = doc.bufferedPageRange();
    const total = range.count;
    const f = this.furniture;
    for (let i = range.start; i < range.start + total; i++) {
      doc.switchToPage(i);
      const page = doc.page;
      const left = MARGIN.side;
      const right = page.width - MARGIN.side;
      const width = right - left;
      // Furniture lives in the margins: lift the bottom margin so pdfkit does not break the page.
      const savedBottom = page.margins.bottom;
      page.margins.bottom = 0;
      if (i > range.start) {
        doc.font('sans').fontSize(8).fillColor(hex(PALETTE.muted));
        doc.text(fitText(doc, f.title, width * 0.6 - 8), left, 34, { width: width * 0.6, lineBreak: false });
        doc.text(fitText(doc, f.subtitle, width * 0.4), left + width * 0.6, 34, { width: width * 0.4, align: 'right', lineBreak: false });
        doc.moveTo(left, 48).lineTo(right, 48).lineWidth(0.5).strokeColor(hex(PALETTE.rule)).stroke();
      }
      const footY = page.height - 40;
      doc.moveTo(left, footY - 6).lineTo(right, footY - 6).lineWidth(0.5).strokeColor(hex(PALETTE.rule)).stroke();
      doc.font('sans').fontSize(8).fillColor(hex(PALETTE.muted));
      doc.text(f.reference, left, footY, { width: width / 3, lineBreak: false });
      if (f.sandbox) {
        doc.font('sansBold').fillColor(hex(PALETTE.negative)).text('SANDBOX DATA', left + width / 3, footY, { width: width / 3, align: 'center', lineBreak: false });
      }
      doc.font('sans').fillColor(hex(PALETTE.muted)).text(`Page ${i - range.start + 1} of ${total}`, left + (2 * width) / 3, footY, { width: width / 3, align: 'right', lineBreak: false });
      page.margins.bottom = savedBottom;
    }
  }

  /** Draws the page furniture and streams the finished PDF to `out`. */
  async finish(out: NodeJS.WritableStream): Promise<void> {
    this.drawFurniture();
    const done = new Promise<void>((resolve, reject) => {
      out.once('finish', () => resolve());
      out.once('error', reject);
      this.doc.once('error', reject);
    });
    this.doc.pipe(out);
    this.doc.end();
    await done;
  }
}

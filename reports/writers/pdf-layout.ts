/**
 * Page furniture for the PDF writers: A4 pages with a running header and a footer that says
 * "Page 3 of 7" (pages are buffered so the total is known), section titles that also go into
 * the document outline, and the text styles of the house look.
 *
 * Every PDF is tagged (PDF/UA-1, PDF/A-3a, see pdf-archive.ts): whatever is drawn is either
 * content in the logical structure tree (`tag`, `group`: headings, paragraphs, tables, figures,
 * in reading order) or an artifact (`artifact`: rules, backgrounds, running header and footer).
 * Drawing outside both would be untagged content, which a screen reader cannot place.
 */
import PDFDocument from 'pdfkit';
import { ARCHIVAL_OPTIONS, attach, declareConformance, type Attachment } from './pdf-archive';
import { houseFontName, registerFonts } from './pdf-fonts';
import type { Brand } from '../../src/brand';
import { themeOf, type Theme } from './brand-theme';
import { enableFontFallback } from './pdf-text-runs';
import { keepUnitsTogether } from './pdf-unit-glue';
import { traceText, unbrokenWords, type TracedText } from './pdf-layout-trace';
import { PALETTE } from './palette';
import { pageMarks } from './data-marks';
import { asLanguage, textDirection } from '../../src/i18n/languages';
import { translator, type Translator } from '../../src/i18n';

export const A4 = { width: 595.28, height: 841.89 };
export const MARGIN = { top: 64, bottom: 60, side: 48 };

export const hex = (c: string) => `#${c}`;

/** The largest size from `size` down to `min`, in half points, at which `fits` holds (`min` when none does). */
function largestSize(size: number, min: number, fits: (size: number) => boolean): number {
  let s = size;
  while (s > min && !fits(s)) s -= 0.5;
  return s;
}

/** The longest start of `text`, ending in an ellipsis, for which `fits` holds (`text` itself when it does). */
function cutToFit(text: string, fits: (shown: string) => boolean): string {
  if (fits(text)) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(text.slice(0, mid).trimEnd() + '…')) lo = mid;
    else hi = mid - 1;
  }
  return text.slice(0, lo).trimEnd() + '…';
}

/** Draws `shown` (`text`, or its start cut with an ellipsis): a cut text in a Span carrying the whole as /ActualText, so a screen reader and a copy get all of it. */
function drawWhole(doc: PDFKit.PDFDocument, text: string, shown: string, draw: () => void): void {
  const cut = shown !== text;
  if (cut) doc.markContent('Span', { actual: text });
  draw();
  if (cut) doc.endMarkedContent();
}

/**
 * The largest font size, from `size` down to `min`, at which `text` fits `width` on one line in
 * the current font. pdfkit breaks a word wider than the box even with lineBreak: false.
 */
export function fitFontSize(doc: PDFKit.PDFDocument, text: string, width: number, size: number, min: number): number {
  return largestSize(size, min, (s) => doc.fontSize(s).widthOfString(text) <= width);
}

/** `text` cut to fit `width` on one line at the current font and size, ending in an ellipsis when cut. */
export function fitText(doc: PDFKit.PDFDocument, text: string, width: number): string {
  return cutToFit(text, (shown) => doc.widthOfString(shown) <= width);
}

/**
 * `text` on one line in `width` at x, y: at `size` in the current font, shrunk down to `min` to
 * fit (kept on the line's middle), then cut with an ellipsis. A cut text carries its whole as
 * /ActualText, so a screen reader and a copy get all of it (issue 36: a longer language).
 */
export function drawOneLine(doc: PDFKit.PDFDocument, text: string, x: number, y: number, options: { width: number; size: number; min: number; align?: Align }): void {
  const { width, size, min, align } = options;
  const fitted = fitFontSize(doc, text, width, size, min);
  const shown = fitText(doc.fontSize(fitted), text, width);
  drawWhole(doc, text, shown, () => doc.text(shown, x, y + (size - fitted) / 2, { width, lineBreak: false, align }));
}

/**
 * `text` wrapped in a box of fixed size at x, y (issue 36: a longer language must not run below
 * it): at `size` in the current font, shrunk down to `min` until its lines fit `height` and each
 * of its words fits `width` (pdfkit would split a wider word between two letters), then cut with
 * an ellipsis, its whole in /ActualText as drawOneLine's. The box's `height` goes to pdfkit too,
 * so the layout trace (pdf-layout-trace.ts) checks every line against the box's bottom.
 */
export function drawInBox(doc: PDFKit.PDFDocument, text: string, x: number, y: number, options: { width: number; height: number; size: number; min: number; align?: Align; lineGap?: number; characterSpacing?: number }): void {
  const { width, height, size, min, ...rest } = options;
  const o = { width, ...rest };
  // heightOfString counts a line gap below the last line too; the box need not hold it.
  const fits = (shown: string) => doc.heightOfString(shown, o) - (o.lineGap ?? 0) <= height && unbrokenWords(shown).every((w) => doc.widthOfString(w, o) <= width);
  const fitted = largestSize(size, min, (s) => {
    doc.fontSize(s);
    return fits(text);
  });
  doc.fontSize(fitted);
  const shown = cutToFit(text, fits);
  drawWhole(doc, text, shown, () => doc.text(shown, x, y, { ...o, height }));
}

export interface Furniture {
  /** Left of the running header, e.g. the portfolio name. */
  title: string;
  /** Right of the running header, e.g. "As of 31 October 2026". */
  subtitle: string;
  /** Left of the footer, e.g. the report id. */
  reference: string;
  sandbox: boolean;
  /** Amounts converted with an illustrative rates file: marked on every page, as sandbox data is. */
  illustrativeRates?: boolean;
  /** The report's language, for the marks and "Page n of N"; English when absent. */
  tr?: Translator;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export interface DocumentOptions {
  /** BCP 47 language of the report's text (the catalog's /Lang), e.g. "en-GB". */
  lang: string;
  /** The document's date (the report's generated_at): info, XMP and attachments, so a fixed date gives identical bytes. */
  created: Date;
  /**
   * Benchmark baseline only (bench/reports.ts): the PDF as written before it became a document
   * of record — PDF 1.3, untagged, no XMP, no attachments, no fallback fonts.
   */
  plain?: boolean;
  /** A firm's brand (issue 28): its colours, fonts, logo, footer; absent: the house look. */
  brand?: Brand;
  /** The pages' direction; by default the language's (`ar`: right to left, whole pages mirrored). */
  dir?: 'ltr' | 'rtl';
  /** Tests only: every piece of text drawn, with where it is and the box it was given (pdf-layout-trace.ts). */
  trace?: TracedText[];
}

/** A text alignment as the writers give it (for a left-to-right page). */
export type Align = 'left' | 'right' | 'center' | 'justify';

/** pdfkit's structure element (its type definitions do not cover tagging). */
export interface StructElement {
  add(child: StructElement | (() => void)): StructElement;
  end(): void;
}
export interface StructOptions {
  alt?: string;
  lang?: string;
  scope?: 'Row' | 'Column' | 'Both';
  bbox?: [number, number, number, number];
  placement?: 'Block' | 'Inline';
}
interface Tagging {
  struct(type: string, options?: StructOptions, children?: (() => void)[]): StructElement;
  addStructure(e: StructElement): void;
  markContent(tag: string, options?: { type?: string }): void;
  endMarkedContent(): void;
}

export class PdfPages {
  readonly doc: PDFKit.PDFDocument;
  private outlineRoot: PDFKit.PDFOutline;
  private readonly tagging: Tagging;
  /** The open structure elements, innermost last; the Document element first. */
  private readonly parents: StructElement[];
  private readonly created: Date;
  private readonly tagged: boolean;
  /** Problems worth telling the user (right-to-left text, missing glyphs), each once. */
  readonly warnings: string[] = [];
  /** The colours drawn in: the brand's, else the house's. */
  readonly theme: Theme;
  readonly brand?: Brand;
  /**
   * The pages' direction. Writers draw as for a left-to-right page and pass x positions through
   * `x()`, alignments through `align()`, columns through `columns()`: on a right-to-left page
   * they come out mirrored (the first column at the right, cards and axes from the right).
   */
  readonly dir: 'ltr' | 'rtl';

  constructor(
    readonly furniture: Furniture,
    info: { Title: string; Author?: string; Subject?: string },
    options: DocumentOptions,
  ) {
    this.created = Number.isNaN(options.created.getTime()) ? new Date() : options.created;
    this.tagged = !options.plain;
    this.doc = new PDFDocument({
      ...(this.tagged ? ARCHIVAL_OPTIONS : { displayTitle: true }),
      size: 'A4',
      margins: { top: MARGIN.top, bottom: MARGIN.bottom, left: MARGIN.side, right: MARGIN.side },
      bufferPages: true,
      autoFirstPage: false,
      // pdfkit cannot serialise an undefined entry (no author when no firm is configured): leave it out.
      // The creation date is the report's, not the clock's: the file ID is derived from it.
      info: { ...definedOnly(info), Creator: 'svc-report', Producer: 'svc-report (pdfkit)', CreationDate: this.created },
      lang: options.lang,
    } as PDFKit.PDFDocumentOptions);
    this.brand = options.brand;
    const language = asLanguage(options.lang);
    this.dir = options.dir ?? (language ? textDirection(language) : 'ltr');
    this.theme = themeOf(options.brand);
    const firmFonts = registerFonts(this.doc, options.brand);
    keepUnitsTogether(this.doc);
    this.tagging = this.doc as unknown as Tagging;
    this.parents = [];
    if (this.tagged) {
      enableFontFallback(this.doc, (w) => this.warnings.push(w), firmFonts ? houseFontName : undefined, { lang: options.lang, dir: this.dir });
      declareConformance(this.doc);
      const root = this.tagging.struct('Document');
      this.tagging.addStructure(root);
      this.parents.push(root);
    }
    if (options.trace) traceText(this.doc, options.trace);
    this.outlineRoot = this.doc.outline;
  }

  /**
   * A structure element of `type` whose content is what `draw` draws, added to the open group
   * in reading order. `draw` must not start a page or draw artifacts.
   */
  tag(type: string, draw: () => void, options: StructOptions = {}): void {
    if (!this.tagged) return draw();
    this.parents[this.parents.length - 1]!.add(this.tagging.struct(type, options, [draw]));
  }

  /** A structure element holding the elements `fill` adds (a table, row, list, section). */
  group(type: string, fill: () => void, options: StructOptions = {}): void {
    if (!this.tagged) return fill();
    const element = this.tagging.struct(type, options);
    this.parents[this.parents.length - 1]!.add(element);
    this.parents.push(element);
    try {
      fill();
    } finally {
      this.parents.pop();
      element.end();
    }
  }

  /** Drawing that carries no content (rules, backgrounds, repeated headers, page furniture). */
  artifact(draw: () => void, type: 'Layout' | 'Pagination' = 'Layout'): void {
    if (!this.tagged) return draw();
    this.tagging.markContent('Artifact', { type });
    try {
      draw();
    } finally {
      this.tagging.endMarkedContent();
    }
  }

  /**
   * A chart: a Figure whose alternative text says what it shows (a screen reader reads `alt`
   * instead of the chart's labels), with its box on the page (given as for a left-to-right page,
   * mirrored on a right-to-left one, as the chart is); `draw` returns the height used.
   */
  figure(alt: string, box: { x: number; y: number; width: number; height: number }, draw: () => number): number {
    let used = 0;
    const x = this.x(box.x, box.width);
    this.tag('Figure', () => (used = draw()), { alt, placement: 'Block', bbox: [x, box.y, x + box.width, box.y + box.height] });
    return used;
  }

  /** A list of items (L, LI, LBody), each drawn by `draw`. */
  list<T>(items: readonly T[], draw: (item: T) => void): void {
    if (items.length === 0) return;
    this.group('L', () => {
      for (const item of items) this.group('LI', () => this.tag('LBody', () => draw(item)));
    });
  }

  /** Embeds a file as a PDF/A-3 associated file (the report's data). */
  attach(file: Attachment): void {
    if (this.tagged) attach(this.doc, file, this.created);
  }

  get rtl(): boolean {
    return this.dir === 'rtl';
  }

  /** Where a box drawn at `x` (`width` wide) on a left-to-right page goes on this one: mirrored about the page's centre when right to left. */
  x(x: number, width = 0): number {
    return this.rtl ? this.doc.page.width - x - width : x;
  }

  /** An alignment on this page: left and right swap when right to left; none is the start side. */
  align(align: Align = 'left'): Align {
    if (!this.rtl) return align;
    return align === 'left' ? 'right' : align === 'right' ? 'left' : align;
  }

  /** Items laid out from the start side, left to right as drawn: reversed when right to left (drawing order, not reading order). */
  columns<T>(items: readonly T[]): T[] {
    return this.rtl ? [...items].reverse() : [...items];
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

  /** A section heading (serif, navy, gold rule; H2, or H1 for a document's first) that is also an outline entry. */
  section(title: string, options: { outline?: boolean; level?: 1 | 2 } = {}): void {
    const doc = this.doc;
    this.ensureSpace(70);
    if (options.outline !== false) this.outlineRoot.addItem(title);
    doc.x = this.left;
    this.tag(`H${options.level ?? 2}`, () => {
      doc.font('serifBold').fontSize(15).fillColor(hex(this.theme.primary)).text(title, this.left, doc.y, { width: this.width, align: this.align() });
    });
    const y = doc.y + 3;
    const rule = this.x(this.left, 60);
    this.artifact(() => doc.moveTo(rule, y).lineTo(rule + 60, y).lineWidth(1.5).strokeColor(hex(this.theme.accent)).stroke());
    doc.y = y + 12;
  }

  subheading(title: string): void {
    this.ensureSpace(40);
    this.tag('H3', () => {
      this.doc.font('sansBold').fontSize(10).fillColor(hex(this.theme.primary)).text(title.toUpperCase(), this.left, this.doc.y, { width: this.width, characterSpacing: 0.8, align: this.align() });
    });
    this.doc.moveDown(0.4);
  }

  paragraph(text: string, options: { size?: number; colour?: string; italic?: boolean } = {}): void {
    const doc = this.doc;
    doc.font('sans').fontSize(options.size ?? 9).fillColor(hex(options.colour ?? PALETTE.ink));
    const height = doc.heightOfString(text, { width: this.width, lineGap: 2 });
    this.ensureSpace(Math.min(height, 200));
    this.tag('P', () => {
      doc.text(text, this.left, doc.y, { width: this.width, lineGap: 2, align: this.align() });
    });
    doc.moveDown(0.6);
  }

  /** A note standing in for an omitted section, in a tinted box. */
  note(text: string): void {
    const doc = this.doc;
    doc.font('sans').fontSize(9);
    const h = doc.heightOfString(text, { width: this.width - 20 }) + 14;
    this.ensureSpace(h + 10);
    const y = doc.y;
    this.artifact(() => {
      doc.rect(this.left, y, this.width, h).fill(hex(PALETTE.paper));
      doc.rect(this.x(this.left, 2.5), y, 2.5, h).fill(hex(this.theme.accent));
    });
    this.tag('P', () => {
      doc.font('sans').fontSize(9).fillColor(hex(PALETTE.muted)).text(text, this.x(this.left + 12, this.width - 20), y + 7, { width: this.width - 20, align: this.align() });
    });
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
      // Running header and footer repeat what the cover and the document say: pagination artifacts.
      this.artifact(() => {
        if (i > range.start) {
          doc.font('sans').fontSize(8).fillColor(hex(PALETTE.muted));
          const title = this.brand ? `${this.brand.firmName} · ${f.title}` : f.title;
          doc.text(fitText(doc, title, width * 0.6 - 8), this.x(left, width * 0.6), 34, { width: width * 0.6, align: this.align('left'), lineBreak: false });
          doc.text(fitText(doc, f.subtitle, width * 0.4), this.x(left + width * 0.6, width * 0.4), 34, { width: width * 0.4, align: this.align('right'), lineBreak: false });
          doc.moveTo(left, 48).lineTo(right, 48).lineWidth(0.5).strokeColor(hex(PALETTE.rule)).stroke();
        }
        const footY = page.height - 40;
        doc.moveTo(left, footY - 6).lineTo(right, footY - 6).lineWidth(0.5).strokeColor(hex(PALETTE.rule)).stroke();
        doc.font('sans').fontSize(8).fillColor(hex(PALETTE.muted));
        doc.text(f.reference, this.x(left, width / 3), footY, { width: width / 3, align: this.align('left'), lineBreak: false });
        // The firm's footer line (its name, registration) under the page's own, on every page.
        const firmLine = this.brand && (this.brand.footer ?? this.brand.firmName);
        if (firmLine) doc.font('sans').fontSize(7).fillColor(hex(PALETTE.muted)).text(fitText(doc, firmLine, width), left, footY + 11, { width, align: 'center', lineBreak: false });
        doc.fontSize(8);
        const marks = pageMarks(f, f.tr);
        if (marks.length > 0) {
          doc.font('sansBold').fillColor(hex(PALETTE.negative));
          doc.text(fitText(doc, marks.join(' · '), width / 3), left + width / 3, footY, { width: width / 3, align: 'center', lineBreak: false });
        }
        doc.font('sans').fillColor(hex(PALETTE.muted)).text((f.tr ?? translator('en')).t('pdf.page_of', { page: i - range.start + 1, total }), this.x(left + (2 * width) / 3, width / 3), footY, { width: width / 3, align: this.align('right'), lineBreak: false });
      }, 'Pagination');
      page.margins.bottom = savedBottom;
    }
  }

  /** Draws the page furniture, closes the structure tree and streams the finished PDF to `out`. */
  async finish(out: NodeJS.WritableStream): Promise<void> {
    this.drawFurniture();
    this.parents[0]?.end();
    // The writers have no logger; a warning on stderr is what the user sees of the problem.
    for (const w of this.warnings) process.emitWarning(w, 'ReportWarning');
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

/**
 * A test's view of where the PDF's text is drawn (issue 36: the pseudo-locale, 40 % longer, must
 * overflow nothing, "checked on the page geometry"). Each text is recorded against the box its
 * writer gave it (the text call's x and `width`, else the page's up to its right margin):
 * - every piece pdfkit draws — each line of a wrapped paragraph or table cell, each run of a
 *   label, figure, tick or piece of furniture, each piece of a right-to-left or CJK line — where
 *   it starts and the width it takes;
 * - a one-line text's (`lineBreak: false`) pieces on its one line: pdfkit wraps a text wider than
 *   its `width` onto the lines below even then, ellipsis or not (under a table's header band);
 * - what pdfkit would hide by breaking it between two letters, as it would be drawn whole: a
 *   one-line text (`lineBreak: false`, not cut with an ellipsis) at its full width, and each word
 *   of a wrapped text (a word wider than its column is split mid-word onto the next line, under
 *   the text it was meant to stand beside).
 * - a wrapped text given a box of fixed height (pdfkit's `height`: a card's note, a cover's box,
 *   a table cell in its measured row): each line's bottom against the box's, and the whole text's
 *   bottom as pdfkit would draw it without the `height` (pdfkit drops the lines below its box unseen).
 * A record outside its box is an overflow. Off unless a caller asks (DocumentOptions.trace): the
 * writers pay nothing for it.
 */
import { glueUnits } from './pdf-unit-glue';

/** One piece of text as drawn: it overflows when [x, x + drawn] is not inside [box.x, box.x + box.width], or a one-line text's piece is not on its line. */
export interface TracedText {
  /** Page index, from 0 (the cover). */
  page: number;
  text: string;
  /** Its left edge as drawn (after its alignment in the line). */
  x: number;
  y: number;
  /** Its width as drawn. */
  drawn: number;
  /** Its lower edge as drawn (its line's height below y), recorded when its box has a bottom. */
  bottom?: number;
  /**
   * The room its writer gave the whole text; `line`, a one-line text's (`lineBreak: false`) line:
   * where each of its pieces must be; `bottom`, a box of fixed height's lower edge (y + `height`).
   */
  box: { x: number; width: number; line?: number; bottom?: number };
}

/** The pieces of `trace` drawn outside their box, as readable lines ("page 3 at 48,120: … (61.2 wide at 40.0 in 48.0 + 55.0)"). */
export function overflowing(trace: readonly TracedText[]): string[] {
  return trace
    .filter((t) => t.x < t.box.x - 0.01 || t.x + t.drawn > t.box.x + t.box.width + 0.01 || (t.box.line !== undefined && Math.abs(t.y - t.box.line) > 0.01) || below(t))
    .map((t) => `page ${t.page + 1} at ${t.box.x.toFixed(0)},${(t.box.line ?? t.y).toFixed(0)}: ${t.text} (${t.drawn.toFixed(1)} wide at ${t.x.toFixed(1)},${t.y.toFixed(1)} in ${t.box.x.toFixed(1)} + ${t.box.width.toFixed(1)}${below(t) ? `; bottom ${t.bottom!.toFixed(1)} below the box's ${t.box.bottom!.toFixed(1)}` : ''})`);
}

/** A piece whose lower edge passes its box's bottom. */
function below(t: TracedText): boolean {
  return t.box.bottom !== undefined && t.bottom !== undefined && t.bottom > t.box.bottom + 0.01;
}

type TextOptions = PDFKit.Mixins.TextOptions & { lineWidth?: number };

type TextFn = (value: unknown, x?: unknown, y?: unknown, options?: unknown) => PDFKit.PDFDocument;
type FragmentFn = (text: string, x: number, y: number, options: TextOptions) => void;

/** Records where `doc` draws text into `trace`; install it last, over every other wrapper of text(). */
export function traceText(doc: PDFKit.PDFDocument, trace: TracedText[]): void {
  const internals = doc as unknown as { text: TextFn; _fragment: FragmentFn; _pageBuffer: unknown[] };
  const text = internals.text.bind(doc);
  const fragment = internals._fragment.bind(doc);
  let box: TracedText['box'] | undefined;
  let depth = 0;
  let continuing = false;
  const page = () => internals._pageBuffer.indexOf(doc.page);
  internals.text = (value, x, y, options) => {
    const o = ((typeof x === 'object' && x !== null ? x : options) ?? {}) as TextOptions;
    // The outermost call names the box; the font fallback's calls inside it draw its runs. A text continued from the last call keeps its box.
    if (depth === 0 && !continuing) {
      const at = typeof x === 'number' ? x : doc.x;
      const top = typeof y === 'number' ? y : doc.y;
      const line = o.lineBreak === false ? { line: top } : {};
      const bottom = o.height !== undefined ? { bottom: top + o.height } : {};
      box = { x: at, width: o.width ?? doc.page.width - doc.page.margins.right - at, ...line, ...bottom };
    }
    if (depth === 0) {
      continuing = o.continued === true;
      const top = box?.line ?? (typeof y === 'number' ? y : doc.y);
      if (box && typeof value === 'string' && !o.ellipsis) for (const whole of unbroken(value, o)) trace.push({ page: page(), text: whole, x: box.x, y: top, drawn: doc.widthOfString(whole, o), box });
      // The whole text as pdfkit would wrap it with no `height` to stop at: its last line's bottom (heightOfString counts a line gap after it).
      if (box?.bottom !== undefined && typeof value === 'string' && value.trim() && o.lineBreak !== false) {
        const { height: _h, ...unbounded } = o;
        trace.push({ page: page(), text: value, x: box.x, y: top, drawn: 0, bottom: top + doc.heightOfString(value, unbounded) - (o.lineGap ?? 0), box });
      }
    }
    depth++;
    try {
      return text(value, x, y, options);
    } finally {
      depth--;
    }
  };
  internals._fragment = (piece, x, y, options) => {
    const shown = String(piece).replace(/\n/g, '').trimEnd();
    if (box && shown.trim()) {
      const drawn = doc.widthOfString(shown, options);
      // pdfkit's own placement of a line in its width (mixins/text.js, _fragment).
      const line = options.width ? options.lineWidth ?? options.width : undefined;
      const left = line === undefined ? x : options.align === 'right' ? x + line - drawn : options.align === 'center' ? x + (line - drawn) / 2 : x;
      trace.push({ page: page(), text: shown, x: left, y, drawn, box, ...(box.bottom !== undefined ? { bottom: y + doc.currentLineHeight(true) } : {}) });
    }
    fragment(piece, x, y, options);
  };
}

/** Chinese and Japanese break between any two characters the locale's rules allow (pdf-line-breaks.ts): no word of theirs is one piece. */
const BREAKS_ANYWHERE = /[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;

/**
 * The pieces of `text` pdfkit wraps between and never inside (short of breaking a word too wide
 * for its line between two letters): split at spaces and after a hyphen or dash before a letter
 * (UAX #14: never before a digit, so "2024-03-15" and "-21.0%" are one piece), a number and its
 * unit glued (pdf-unit-glue.ts). Chinese and Japanese text, which breaks between characters, has none.
 */
export function unbrokenWords(text: string): string[] {
  return glueUnits(text)
    .split(/[ \t\r\n]+|(?<=[-\u2013\u2014])(?=\p{L})/u)
    .filter((w) => w && !BREAKS_ANYWHERE.test(w));
}

/** What must fit unbroken: a one-line text whole; a wrapped text's words. */
function unbroken(value: string, o: TextOptions): string[] {
  if (o.lineBreak === false) return value.trim() ? [value.trim()] : [];
  return unbrokenWords(value);
}

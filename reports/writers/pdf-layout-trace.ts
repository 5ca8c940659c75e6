/**
 * A test's view of the PDF's one-line texts (issue 36: the pseudo-locale, 40 % longer, must
 * overflow nothing): each text drawn with `lineBreak: false` — labels, figures, axis ticks,
 * furniture, the texts pdfkit never wraps — is recorded with the room it was given (its `width`,
 * else the page's up to its right margin) and the width it takes as drawn. Wrapped text cannot
 * overflow its width, and an ellipsised text is cut to it, so neither is recorded. Off unless a
 * caller asks (DocumentOptions.trace): the writers pay nothing for it.
 */

/** One line of text as drawn: `drawn` wider than `room` is an overflow. */
export interface TracedText {
  /** Page index, from 0 (the cover). */
  page: number;
  text: string;
  x: number;
  y: number;
  room: number;
  drawn: number;
}

interface OneLineOptions {
  width?: number;
  lineBreak?: boolean;
  ellipsis?: boolean | string;
  continued?: boolean;
}

type TextFn = (value: unknown, x?: unknown, y?: unknown, options?: unknown) => PDFKit.PDFDocument;

/** Records `doc`'s one-line texts into `trace`; install it last, over every other wrapper of text(). */
export function traceOneLineText(doc: PDFKit.PDFDocument, trace: TracedText[]): void {
  const text = doc.text.bind(doc) as TextFn;
  const pages = (doc as unknown as { _pageBuffer: unknown[] })._pageBuffer;
  (doc as unknown as { text: TextFn }).text = (value, x, y, options) => {
    const o = ((typeof x === 'object' && x !== null ? x : options) ?? {}) as OneLineOptions;
    if (typeof value === 'string' && o.lineBreak === false && !o.ellipsis && !o.continued && value.trim()) {
      const at = { x: typeof x === 'number' ? x : doc.x, y: typeof y === 'number' ? y : doc.y };
      const room = o.width ?? doc.page.width - doc.page.margins.right - at.x;
      trace.push({ page: pages.indexOf(doc.page), text: value, ...at, room, drawn: doc.widthOfString(value, o) });
    }
    return text(value, x, y, options);
  };
}

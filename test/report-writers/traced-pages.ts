/** A German A4 page set with the layout trace on, and a record of every text pdfkit is asked to draw at its font size: the one-line and in-box tests' set-up. */
import { PdfPages } from '../../reports/writers/pdf-layout';
import type { TracedText } from '../../reports/writers/pdf-layout-trace';

export function tracedPages(trace: TracedText[]): PdfPages {
  const p = new PdfPages({ title: 't', subtitle: 's', reference: 'r', sandbox: false }, { Title: 't' }, { lang: 'de', created: new Date('2026-10-31T00:00:00Z'), trace });
  p.addPage();
  return p;
}

/** Each text drawn from now on, with the font size it was drawn at (the shrink is what the tests check). */
export function recordDrawnSizes(p: PdfPages): { text: string; size: number }[] {
  const drawn: { text: string; size: number }[] = [];
  const text = p.doc.text.bind(p.doc);
  p.doc.text = ((s: string, ...rest: unknown[]) => {
    drawn.push({ text: s, size: (p.doc as unknown as { _fontSize: number })._fontSize });
    return (text as (...a: unknown[]) => PDFKit.PDFDocument)(s, ...rest);
  }) as typeof p.doc.text;
  return drawn;
}

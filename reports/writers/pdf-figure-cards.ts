/** The summary's key figures as cards, three a row from the start side (the right on an `ar` page): label, figure, optional note beneath. */
import { PALETTE } from './palette';
import { type Align, type PdfPages, drawInBox, drawOneLine, fitFontSize, hex } from './pdf-layout';

export interface Figure {
  label: string;
  value: string;
  sub?: string;
  colour?: string;
}

export function drawFigures(p: PdfPages, figures: Figure[], perRow = 3): void {
  const { doc } = p;
  const gap = 10;
  const w = (p.width - gap * (perRow - 1)) / perRow;
  const h = 62;
  for (let i = 0; i < figures.length; i += perRow) {
    p.ensureSpace(h + gap);
    const y = doc.y;
    const row = figures.slice(i, i + perRow);
    p.artifact(() => {
      row.forEach((_, k) => {
        const x = p.x(p.left + k * (w + gap), w);
        doc.rect(x, y, w, h).fill(hex(PALETTE.paper));
        doc.rect(x, y, w, 2).fill(hex(p.theme.accent));
      });
    });
    // Each card reads as one paragraph: label, figure, note.
    row.forEach((f, k) => {
      const x = p.x(p.left + k * (w + gap), w);
      const align = p.align();
      p.tag('P', () => {
        drawLabel(doc, f.label.toUpperCase(), x + 10, y + 10, w - 20, align);
        doc.font('serifBold');
        const size = fitFontSize(doc, f.value, w - 20, 15, 9);
        doc.fontSize(size).fillColor(hex(f.colour ?? p.theme.primary)).text(f.value, x + 10, y + 24 + (15 - size) / 2, { width: w - 20, lineBreak: false, align });
        if (f.sub) drawNote(doc, f.sub, x + 10, y + 45, w - 20, h - 47, align);
      });
    });
    doc.y = y + h + gap;
  }
  doc.x = p.left;
}

/** The smallest size a card's label shrinks to before it is cut with an ellipsis. */
const LABEL_MIN_SIZE = 6;

/**
 * A card's label on its one line (the figure sits right under it): tracked at 7.5 pt; too long
 * (a language 40 % longer than English), untracked and shrunk down to LABEL_MIN_SIZE; still too
 * long, cut with an ellipsis (its whole in /ActualText) — the label names the figure, whose value is whole beneath.
 */
function drawLabel(doc: PDFKit.PDFDocument, label: string, x: number, y: number, width: number, align: Align): void {
  doc.font('sans').fontSize(7.5).fillColor(hex(PALETTE.muted));
  if (doc.widthOfString(label, { characterSpacing: 0.6 }) <= width) {
    doc.text(label, x, y, { width, characterSpacing: 0.6, lineBreak: false, align });
    return;
  }
  drawOneLine(doc, label, x, y, { width, size: 7.5, min: LABEL_MIN_SIZE, align });
}

/** The smallest size a card's note shrinks to (the card has room for two lines of it). */
const NOTE_MIN_SIZE = 6;

/**
 * A card's note in the card's foot (`height` to its bottom): shrunk to fit one line, else wrapped
 * at a size its lines fit, down to NOTE_MIN_SIZE. Cut with an ellipsis (its whole in /ActualText)
 * only when two lines at that size cannot hold it — "Range CHF 36,822,8…" hides the top of the
 * range the figure above it is the middle of, but a third line ran below the card.
 */
function drawNote(doc: PDFKit.PDFDocument, note: string, x: number, y: number, width: number, height: number, align: Align): void {
  drawInBox(doc.font('sans').fillColor(hex(PALETTE.muted)), note, x, y, { width, height, size: 7.5, min: NOTE_MIN_SIZE, lineGap: 0, align });
}

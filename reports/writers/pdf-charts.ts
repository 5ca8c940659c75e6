/** Vector charts drawn with pdfkit paths: a donut for allocation, bars for returns. */
import { PALETTE } from './palette';
import { hex } from './pdf-layout';
import { formatPercent } from './text-format';

export interface Slice {
  label: string;
  value: number;
  colour: string;
}

const point = (cx: number, cy: number, r: number, angle: number) => [cx + r * Math.cos(angle), cy + r * Math.sin(angle)] as const;

/** One ring segment from angle a0 to a1 (radians, clockwise from 12 o'clock). */
function ringSegment(doc: PDFKit.PDFDocument, cx: number, cy: number, outer: number, inner: number, a0: number, a1: number, colour: string): void {
  const [x0, y0] = point(cx, cy, outer, a0);
  const [x1, y1] = point(cx, cy, outer, a1);
  const [x2, y2] = point(cx, cy, inner, a1);
  const [x3, y3] = point(cx, cy, inner, a0);
  const large = a1 - a0 > Math.PI ? 1 : 0;
  doc
    .path(`M ${x0} ${y0} A ${outer} ${outer} 0 ${large} 1 ${x1} ${y1} L ${x2} ${y2} A ${inner} ${inner} 0 ${large} 0 ${x3} ${y3} Z`)
    .fill(hex(colour));
}

/** A donut with its legend to the right; `centre` is printed in the hole (e.g. the total). */
export function donutChart(doc: PDFKit.PDFDocument, x: number, y: number, size: number, slices: Slice[], centre: { label: string; value: string }, legendWidth: number): number {
  const r = size / 2;
  const cx = x + r;
  const cy = y + r;
  const inner = r * 0.58;
  const total = slices.reduce((s, sl) => s + Math.max(0, sl.value), 0);
  let angle = -Math.PI / 2;
  if (total > 0) {
    for (const sl of slices) {
      const sweep = (Math.max(0, sl.value) / total) * 2 * Math.PI;
      if (sweep <= 0) continue;
      // An arc cannot span a full circle: draw a whole ring as two halves.
      if (sweep >= 2 * Math.PI - 1e-9) {
        ringSegment(doc, cx, cy, r, inner, angle, angle + Math.PI, sl.colour);
        ringSegment(doc, cx, cy, r, inner, angle + Math.PI, angle + 2 * Math.PI, sl.colour);
      } else {
        ringSegment(doc, cx, cy, r, inner, angle, angle + sweep, sl.colour);
      }
      angle += sweep;
    }
    // Thin white separators between slices.
    angle = -Math.PI / 2;
    for (const sl of slices) {
      const [ox, oy] = point(cx, cy, r + 0.5, angle);
      const [ix, iy] = point(cx, cy, inner - 0.5, angle);
      doc.moveTo(ix, iy).lineTo(ox, oy).lineWidth(1).strokeColor('#FFFFFF').stroke();
      angle += (Math.max(0, sl.value) / total) * 2 * Math.PI;
    }
  } else {
    doc.circle(cx, cy, r).lineWidth(r - inner).strokeColor(hex(PALETTE.rule)).stroke();
  }
  doc.font('sans').fontSize(7).fillColor(hex(PALETTE.muted)).text(centre.label, cx - inner, cy - 12, { width: 2 * inner, align: 'center' });
  doc.font('serifBold').fontSize(9).fillColor(hex(PALETTE.navy)).text(centre.value, cx - inner, cy - 2, { width: 2 * inner, align: 'center' });

  // Legend: colour chip, name, share.
  const lx = x + size + 18;
  let ly = y + 4;
  for (const sl of slices) {
    doc.rect(lx, ly + 1.5, 7, 7).fill(hex(sl.colour));
    doc.font('sans').fontSize(8).fillColor(hex(PALETTE.ink)).text(sl.label, lx + 12, ly, { width: legendWidth - 60, lineBreak: false, ellipsis: true });
    doc.text(total > 0 ? formatPercent((sl.value / total) * 100) : '–', lx + legendWidth - 50, ly, { width: 38, align: 'right', lineBreak: false });
    ly += 13;
  }
  return Math.max(size, ly - y);
}

export interface Bar {
  label: string;
  /** Percent units; null draws "n/a". */
  value: number | null;
  colour: string;
}

/** Vertical bars around a zero line with value labels; returns the height used. */
export function barChart(doc: PDFKit.PDFDocument, x: number, y: number, width: number, height: number, bars: Bar[]): number {
  const values = bars.map((b) => b.value ?? 0);
  const max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  const labelBand = 14;
  const plotTop = y + labelBand;
  const plotHeight = height - 2 * labelBand - 12;
  const zeroY = plotTop + (max / span) * plotHeight;
  const slot = width / bars.length;
  const barWidth = Math.min(46, slot * 0.55);

  // Light gridlines at nice steps.
  const step = niceStep(span / 4);
  doc.lineWidth(0.3).strokeColor(hex(PALETTE.rule));
  for (let v = Math.ceil(min / step) * step; v <= max + 1e-9; v += step) {
    const gy = plotTop + ((max - v) / span) * plotHeight;
    doc.moveTo(x, gy).lineTo(x + width, gy).stroke();
    doc.font('sans').fontSize(6.5).fillColor(hex(PALETTE.muted)).text(formatPercent(v, 0), x - 34, gy - 3.5, { width: 30, align: 'right', lineBreak: false });
  }
  bars.forEach((b, i) => {
    const bx = x + i * slot + (slot - barWidth) / 2;
    if (b.value !== null) {
      const top = plotTop + ((max - Math.max(0, b.value)) / span) * plotHeight;
      const h = (Math.abs(b.value) / span) * plotHeight;
      doc.rect(bx, top, barWidth, Math.max(h, 0.5)).fill(hex(b.colour));
      const labelY = b.value >= 0 ? top - 11 : top + h + 2;
      doc.font('sansBold').fontSize(7.5).fillColor(hex(b.value < 0 ? PALETTE.negative : PALETTE.ink)).text(formatPercent(b.value, 1, true), bx - 10, labelY, { width: barWidth + 20, align: 'center', lineBreak: false });
    } else {
      doc.font('sans').fontSize(7).fillColor(hex(PALETTE.muted)).text('n/a', bx - 10, zeroY - 11, { width: barWidth + 20, align: 'center', lineBreak: false });
    }
    doc.font('sans').fontSize(7.5).fillColor(hex(PALETTE.ink)).text(b.label, x + i * slot, plotTop + plotHeight + labelBand + 2, { width: slot, align: 'center', lineBreak: false, ellipsis: true });
  });
  doc.moveTo(x, zeroY).lineTo(x + width, zeroY).lineWidth(0.8).strokeColor(hex(PALETTE.ink)).stroke();
  return height;
}

function niceStep(raw: number): number {
  const pow = 10 ** Math.floor(Math.log10(raw));
  const n = raw / pow;
  return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * pow;
}

/** What the donut shows, for its Figure's alternative text: every slice with its share. */
export function donutAlt(title: string, slices: Slice[], centre: { label: string; value: string }): string {
  const total = slices.reduce((s, sl) => s + Math.max(0, sl.value), 0);
  const parts = slices.map((sl) => `${sl.label} ${total > 0 ? formatPercent((Math.max(0, sl.value) / total) * 100) : '–'}`);
  return `${title}, donut chart: ${parts.length > 0 ? parts.join('; ') : 'no holdings'}. ${centre.label}: ${centre.value}.`;
}

/** What the bars show, for their Figure's alternative text: every bar with its value. */
export function barAlt(title: string, bars: Bar[]): string {
  return `${title}, bar chart: ${bars.map((b) => `${b.label} ${b.value === null ? 'not available' : formatPercent(b.value, 1, true)}`).join('; ')}.`;
}

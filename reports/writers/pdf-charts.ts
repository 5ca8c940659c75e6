/**
 * Vector charts drawn with pdfkit paths: a donut for allocation, bars for returns, lines over
 * dates. Each is drawn as for a left-to-right page, every x position through the page's
 * `Direction`: on a right-to-left page (`ar`) the chart comes out mirrored — value axes on the
 * right, the first bar and the earliest date at the right (time runs right to left), legend chips
 * right of their names, the donut's slices counter-clockwise — with its text unmirrored.
 */
import { PALETTE } from './palette';
import { hex, type Align } from './pdf-layout';
import { translator, type Translator } from '../../src/i18n';
import { lineAxis, niceStep, shortMonth, type Bar, type Line, type Slice } from './chart-words';

export { barAlt, donutAlt, lineAlt, type Bar, type Line, type Slice } from './chart-words';

/** How x positions and alignments land on the page (a PdfPages is one); left to right when absent. */
export interface Direction {
  readonly rtl: boolean;
  x(x: number, width?: number): number;
  align(align?: Align): Align;
}

const LEFT_TO_RIGHT: Direction = { rtl: false, x: (x) => x, align: (align = 'left') => align };

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
export function donutChart(doc: PDFKit.PDFDocument, x: number, y: number, size: number, slices: Slice[], centre: { label: string; value: string; colour?: string }, legendWidth: number, tr: Translator = translator('en'), d: Direction = LEFT_TO_RIGHT): number {
  const r = size / 2;
  const cx = d.x(x, size) + r;
  const cy = y + r;
  const inner = r * 0.58;
  const total = slices.reduce((s, sl) => s + Math.max(0, sl.value), 0);
  // Mirrored, a clockwise angle a becomes π − a, and the segment runs the other way.
  const mirrored = (a: number) => (d.rtl ? Math.PI - a : a);
  const segment = (a0: number, a1: number, colour: string) =>
    d.rtl ? ringSegment(doc, cx, cy, r, inner, mirrored(a1), mirrored(a0), colour) : ringSegment(doc, cx, cy, r, inner, a0, a1, colour);
  let angle = -Math.PI / 2;
  if (total > 0) {
    for (const sl of slices) {
      const sweep = (Math.max(0, sl.value) / total) * 2 * Math.PI;
      if (sweep <= 0) continue;
      // An arc cannot span a full circle: draw a whole ring as two halves.
      if (sweep >= 2 * Math.PI - 1e-9) {
        segment(angle, angle + Math.PI, sl.colour);
        segment(angle + Math.PI, angle + 2 * Math.PI, sl.colour);
      } else {
        segment(angle, angle + sweep, sl.colour);
      }
      angle += sweep;
    }
    // Thin white separators between slices.
    angle = -Math.PI / 2;
    for (const sl of slices) {
      const [ox, oy] = point(cx, cy, r + 0.5, mirrored(angle));
      const [ix, iy] = point(cx, cy, inner - 0.5, mirrored(angle));
      doc.moveTo(ix, iy).lineTo(ox, oy).lineWidth(1).strokeColor('#FFFFFF').stroke();
      angle += (Math.max(0, sl.value) / total) * 2 * Math.PI;
    }
  } else {
    doc.circle(cx, cy, r).lineWidth(r - inner).strokeColor(hex(PALETTE.rule)).stroke();
  }
  doc.font('sans').fontSize(7).fillColor(hex(PALETTE.muted)).text(centre.label, cx - inner, cy - 12, { width: 2 * inner, align: 'center' });
  doc.font('serifBold').fontSize(9).fillColor(hex(centre.colour ?? PALETTE.navy)).text(centre.value, cx - inner, cy - 2, { width: 2 * inner, align: 'center' });

  // Legend: colour chip, name, share.
  const lx = x + size + 18;
  let ly = y + 4;
  for (const sl of slices) {
    doc.rect(d.x(lx, 7), ly + 1.5, 7, 7).fill(hex(sl.colour));
    doc.font('sans').fontSize(8).fillColor(hex(PALETTE.ink)).text(sl.label, d.x(lx + 12, legendWidth - 60), ly, { width: legendWidth - 60, align: d.align(), lineBreak: false, ellipsis: true });
    doc.text(total > 0 ? tr.percent((sl.value / total) * 100) : '–', d.x(lx + legendWidth - 50, 38), ly, { width: 38, align: d.align('right'), lineBreak: false });
    ly += 13;
  }
  return Math.max(size, ly - y);
}

/** Vertical bars around a zero line with value labels; returns the height used. */
export function barChart(doc: PDFKit.PDFDocument, x: number, y: number, width: number, height: number, bars: Bar[], tr: Translator = translator('en'), d: Direction = LEFT_TO_RIGHT): number {
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
    doc.moveTo(d.x(x), gy).lineTo(d.x(x + width), gy).stroke();
    doc.font('sans').fontSize(6.5).fillColor(hex(PALETTE.muted)).text(tr.percent(v, { digits: 0 }), d.x(x - 34, 30), gy - 3.5, { width: 30, align: d.align('right'), lineBreak: false });
  }
  bars.forEach((b, i) => {
    const bx = d.x(x + i * slot + (slot - barWidth) / 2, barWidth);
    if (b.value !== null) {
      const top = plotTop + ((max - Math.max(0, b.value)) / span) * plotHeight;
      const h = (Math.abs(b.value) / span) * plotHeight;
      doc.rect(bx, top, barWidth, Math.max(h, 0.5)).fill(hex(b.colour));
      const labelY = b.value >= 0 ? top - 11 : top + h + 2;
      doc.font('sansBold').fontSize(7.5).fillColor(hex(b.value < 0 ? PALETTE.negative : PALETTE.ink)).text(tr.percent(b.value, { signed: true }), bx - 10, labelY, { width: barWidth + 20, align: 'center', lineBreak: false });
    } else {
      doc.font('sans').fontSize(7).fillColor(hex(PALETTE.muted)).text(tr.t('pdf.chart_na'), bx - 10, zeroY - 11, { width: barWidth + 20, align: 'center', lineBreak: false });
    }
    doc.font('sans').fontSize(7.5).fillColor(hex(PALETTE.ink)).text(b.label, d.x(x + i * slot, slot), plotTop + plotHeight + labelBand + 2, { width: slot, align: 'center', lineBreak: false, ellipsis: true });
  });
  doc.moveTo(d.x(x), zeroY).lineTo(d.x(x + width), zeroY).lineWidth(0.8).strokeColor(hex(PALETTE.ink)).stroke();
  return height;
}

/**
 * Lines over dates with a legend above, the value axis at the start side labelled by `format`
 * (money in the report currency) and about six dates along the bottom; returns the height used.
 */
export function lineChart(doc: PDFKit.PDFDocument, x: number, y: number, width: number, height: number, dates: string[], lines: Line[], format: (v: number) => string, tr: Translator = translator('en'), d: Direction = LEFT_TO_RIGHT): number {
  const legendBand = 16;
  const axisBand = 16;
  const axisWidth = 58;
  const plotLeft = x + axisWidth;
  const plotWidth = width - axisWidth;
  const plotTop = y + legendBand + 6;
  const plotHeight = height - legendBand - 6 - axisBand;
  const { step, min, max } = lineAxis(lines);
  const yOf = (v: number) => plotTop + ((max - v) / (max - min)) * plotHeight;
  const ltrXOf = (i: number) => plotLeft + (dates.length > 1 ? (i / (dates.length - 1)) * plotWidth : plotWidth / 2);
  const xOf = (i: number) => d.x(ltrXOf(i));
  const plotStart = d.x(plotLeft);
  const plotEnd = d.x(plotLeft + plotWidth);

  // Legend: a short stroke of each line's colour and its name.
  let lx = plotLeft;
  for (const l of lines) {
    doc.moveTo(d.x(lx), y + 6).lineTo(d.x(lx + 16), y + 6).lineWidth(2).strokeColor(hex(l.colour));
    if (l.dashed) doc.dash(3, { space: 2 });
    doc.stroke().undash();
    doc.font('sans').fontSize(8).fillColor(hex(PALETTE.ink));
    const labelWidth = doc.widthOfString(l.label);
    // Its own width: an Arabic label, given none, would be set against the page's far margin.
    doc.text(l.label, d.x(lx + 20, labelWidth), y + 1.5, { width: labelWidth, align: d.align(), lineBreak: false });
    lx += 20 + labelWidth + 18;
  }
  // Gridlines with the amounts they mark.
  doc.lineWidth(0.3).strokeColor(hex(PALETTE.rule));
  for (let v = min; v <= max + step / 1e6; v += step) {
    doc.moveTo(plotStart, yOf(v)).lineTo(plotEnd, yOf(v)).stroke();
    doc.font('sans').fontSize(6.5).fillColor(hex(PALETTE.muted)).text(format(v), d.x(x, axisWidth - 4), yOf(v) - 3.5, { width: axisWidth - 4, align: d.align('right'), lineBreak: false });
  }
  // About six dates along the bottom, always the first and the last.
  const every = Math.max(1, Math.ceil((dates.length - 1) / 5));
  dates.forEach((date, i) => {
    if (i % every !== 0 && i !== dates.length - 1) return;
    if (i !== dates.length - 1 && dates.length - 1 - i < every / 2) return;
    // Centred under its point, kept within the chart: the last date's label ends at its edge, not in the margin.
    const at = Math.min(Math.max(ltrXOf(i) - 25, x), x + width - 50);
    doc.font('sans').fontSize(6.5).fillColor(hex(PALETTE.muted)).text(shortMonth(date, tr), d.x(at, 50), plotTop + plotHeight + 4, { width: 50, align: 'center', lineBreak: false });
  });
  for (const l of lines) {
    l.values.forEach((v, i) => (i === 0 ? doc.moveTo(xOf(i), yOf(v)) : doc.lineTo(xOf(i), yOf(v))));
    doc.lineWidth(1.6).strokeColor(hex(l.colour));
    if (l.dashed) doc.dash(4, { space: 2.5 });
    doc.stroke().undash();
  }
  doc.moveTo(plotStart, yOf(0)).lineTo(plotEnd, yOf(0)).lineWidth(0.6).strokeColor(hex(PALETTE.ink)).stroke();
  return height;
}

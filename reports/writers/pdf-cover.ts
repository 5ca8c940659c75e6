/**
 * The PDF's cover page: the band (navy, or the firm's primary colour) with the portfolio and
 * client, the key references, the sandbox warning. With a brand: the firm's logo (a Figure whose
 * alternative text is the firm's name) in a white strip above the band, or its dark variant on
 * the band; its cover title; the portfolio's relationship manager among the references. The
 * page's bottom (below the confidentiality line) stays free for a signature field.
 */
import type { LogoImage } from '../../src/brand';
import { coverFacts } from './cover-facts';
import type { ReportData } from '../report-data';
import { PALETTE } from './palette';
import { A4, MARGIN, type PdfPages, drawInBox, hex } from './pdf-layout';
import { reportTranslator } from './report-language';

export function drawCover(p: PdfPages, data: ReportData): void {
  const { doc } = p;
  const c = data.cover;
  const tr = reportTranslator(data);
  p.addPage();
  doc.outline.addItem(tr.t('pdf.cover'));
  const bandHeight = 330;
  const brand = p.brand;
  // A logo for light backgrounds sits in a white strip above the band; a dark variant alone sits on the band.
  const stripHeight = brand?.logo ? 84 : 0;
  p.artifact(() => {
    doc.rect(0, stripHeight, A4.width, bandHeight - stripHeight).fill(hex(p.theme.primary));
    doc.rect(0, bandHeight, A4.width, 4).fill(hex(p.theme.accent));
  });
  const x = MARGIN.side + 12;
  const w = A4.width - 2 * x;
  const logo = brand?.logo ?? brand?.logoDark;
  if (brand && logo) drawLogo(p, logo, brand.firmName, { x, y: 22, width: 180, height: 44 });
  const top = stripHeight ? stripHeight + 26 : 96;
  const tagline = c.audience === 'internal' ? tr.t('pdf.cover_tagline_internal') : (brand?.coverTitle ?? tr.t('pdf.cover_tagline'));
  // The band's text spans the page's width less its margins (symmetric): only its alignment follows the page's direction.
  const align = p.align();
  // Each text in the band has its box (issue 36: a longer language, a long name): shrunk, then cut, never run into the next.
  p.tag('P', () => drawInBox(doc.font('sansBold').fillColor(hex(p.theme.accent)), tagline, x, top, { width: w, height: 24, size: 9, min: 7, characterSpacing: 2.5, align }));
  // The name takes up to two lines; the line under it what is left above the service line.
  const serviceY = bandHeight - 48;
  p.tag('H1', () => drawInBox(doc.font('serifBold').fillColor('#FFFFFF'), c.portfolio_name, x, top + 26, { width: w, height: 2 * (doc.fontSize(28).currentLineHeight(true) + 2), size: 28, min: 18, lineGap: 2, align }));
  doc.moveDown(0.4);
  p.tag('P', () => drawInBox(doc.font('serif').fillColor('#E8E2D6'), c.audience === 'internal' ? tr.t('pdf.cover_consolidated', { count: c.portfolios.length }) : tr.t('pdf.cover_prepared_for', { client: c.client_name }), x, doc.y, { width: w, height: serviceY - 6 - doc.y, size: 13, min: 9, align }));
  p.tag('P', () => drawInBox(doc.font('sans').fillColor('#C9C3B6'), brand ? tr.t('pdf.cover_service_firm', { firm: brand.firmName }) : tr.t('pdf.cover_service'), x, serviceY, { width: w, height: 40, size: 10, min: 7, align }));

  p.tag('P', () => drawInBox(doc.font('serif').fillColor(hex(p.theme.primary)), tr.t('common.valued_as_of', { date: tr.date(c.as_of) }), x, bandHeight + 44, { width: w, height: 36, size: 16, min: 11, align }));
  let y = bandHeight + 84;
  const rows = coverFacts(c, brand, tr, (line) => p.warnings.push(line));
  // Tighter rows when a manager adds two: the page's bottom stays free.
  const pitch = rows.length > 5 ? 21 : 24;
  // Label and value pairs: a two-column table whose labels head their rows.
  p.group('Table', () => {
    for (const [label, value] of rows) {
      const at = y;
      p.group('TR', () => {
        // Labels at the start side (the right on an `ar` page), values beside them.
        // Each within its row (the next row `pitch` below).
        p.tag('TH', () => drawInBox(doc.font('sans').fillColor(hex(PALETTE.muted)), label.toLocaleUpperCase(tr.lang), p.x(x, 130), at, { width: 130, height: pitch - 2, size: 9, min: 6.5, characterSpacing: 0.6, align }), { scope: 'Row' });
        p.tag('TD', () => drawInBox(doc.font('serif').fillColor(hex(PALETTE.ink)), value, p.x(x + 140, w - 140), at - 1.5, { width: w - 140, height: pitch - 1, size: 11, min: 8, align }));
      });
      y += pitch;
    }
  });
  // A warning is read whole: its box grows to its text (a longer language's took two lines in a box of one and ran onto its border).
  const warning = (title: string, text: string) => {
    y += 16;
    const at = y;
    const textHeight = doc.font('sans').fontSize(9).heightOfString(text, { width: w - 28 });
    // Title, text, and a bottom padding that keeps a one-line warning's box at its 46 pt.
    const height = 25 + textHeight + 10.5;
    p.artifact(() => doc.rect(x, at, w, height).lineWidth(1.2).strokeColor(hex(PALETTE.negative)).stroke());
    p.tag('P', () => {
      drawInBox(doc.font('sansBold').fillColor(hex(PALETTE.negative)), title, x + 14, at + 9, { width: w - 28, height: 15, size: 11, min: 8, align });
      doc.font('sans').fontSize(9).text(text, x + 14, at + 25, { width: w - 28, height: textHeight, align });
    });
    y += height;
  };
  if (c.sandbox) warning(tr.t('pdf.sandbox_title'), tr.t('pdf.sandbox_text'));
  if (c.illustrative_rates) warning(tr.t('pdf.illustrative_title'), tr.t('pdf.illustrative_text'));
  p.tag('P', () => doc.font('sans').fontSize(8).fillColor(hex(PALETTE.muted)).text(tr.t(c.audience === 'internal' ? 'pdf.confidential_internal' : 'pdf.confidential'), x, A4.height - 110, { width: w, align }));
}

/** The firm's logo: a Figure whose alternative text is the firm's name, fitted into `box` keeping its proportions. */
function drawLogo(p: PdfPages, logo: LogoImage, firmName: string, box: { x: number; y: number; width: number; height: number }): void {
  const scale = Math.min(box.width / logo.width, box.height / logo.height);
  const [w, h] = [logo.width * scale, logo.height * scale];
  // At the start side: the right on an `ar` page (figure() mirrors the box, the image is placed so).
  p.figure(firmName, { x: box.x, y: box.y, width: w, height: h }, () => {
    p.doc.image(Buffer.from(logo.png.buffer, logo.png.byteOffset, logo.png.byteLength), p.x(box.x, w), box.y, { width: w, height: h });
    return h;
  });
}

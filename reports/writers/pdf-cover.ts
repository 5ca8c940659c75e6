/**
 * The PDF's cover page: the band (navy, or the firm's primary colour) with the portfolio and
 * client, the key references, the sandbox warning. With a brand: the firm's logo (a Figure whose
 * alternative text is the firm's name) in a white strip above the band, or its dark variant on
 * the band; its cover title; the portfolio's relationship manager among the references. The
 * page's bottom (below the confidentiality line) stays free for a signature field.
 */
import { managerOf, type LogoImage } from '../../src/brand';
import type { ReportData } from '../report-data';
import { PALETTE } from './palette';
import { A4, MARGIN, type PdfPages, hex } from './pdf-layout';
import { formatLongDate, formatTimestamp } from './text-format';
import { ILLUSTRATIVE_RATES_WARNING } from './data-marks';

export function drawCover(p: PdfPages, data: ReportData): void {
  const { doc } = p;
  const c = data.cover;
  p.addPage();
  doc.outline.addItem('Cover');
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
  const tagline = c.audience === 'internal' ? 'INTERNAL FIRM REPORT — NOT FOR CLIENTS' : (brand?.coverTitle ?? 'PRIVATE CLIENT REPORT');
  p.tag('P', () => doc.font('sansBold').fontSize(9).fillColor(hex(p.theme.accent)).text(tagline, x, top, { width: w, characterSpacing: 2.5 }));
  p.tag('H1', () => doc.font('serifBold').fontSize(28).fillColor('#FFFFFF').text(c.portfolio_name, x, top + 26, { width: w, lineGap: 2 }));
  doc.moveDown(0.4);
  p.tag('P', () => doc.font('serif').fontSize(13).fillColor('#E8E2D6').text(c.audience === 'internal' ? `Consolidated across ${c.portfolios.length} portfolios, for the firm's own use` : `Prepared for ${c.client_name}`, x, doc.y, { width: w }));
  p.tag('P', () => doc.font('sans').fontSize(10).fillColor('#C9C3B6').text(brand ? `${brand.firmName} · Valuation of collectible and luxury assets` : 'Valuation of collectible and luxury assets', x, bandHeight - 48, { width: w }));

  p.tag('P', () => doc.font('serif').fontSize(16).fillColor(hex(p.theme.primary)).text(`Valued as of ${formatLongDate(c.as_of)}`, x, bandHeight + 44, { width: w }));
  let y = bandHeight + 84;
  const rows: [string, string][] = [
    ['Base currency', c.currency],
    ['Report reference', c.report_id],
    ['Generated', formatTimestamp(c.generated_at)],
  ];
  if (c.portfolio_id) rows.push(['Portfolio id', c.portfolio_id]);
  const preparedBy = c.prepared_by ?? brand?.firmName;
  if (preparedBy) rows.push(['Prepared by', preparedBy]);
  const manager = c.audience === 'internal' ? undefined : managerOf(brand, { name: c.portfolio_name, id: c.portfolio_id });
  if (manager) {
    rows.push(['Relationship manager', manager.name]);
    const contact = [manager.email, manager.phone].filter(Boolean).join(' · ');
    if (contact) rows.push(['Contact', contact]);
  }
  // Tighter rows when a manager adds two: the page's bottom stays free.
  const pitch = rows.length > 5 ? 21 : 24;
  // Label and value pairs: a two-column table whose labels head their rows.
  p.group('Table', () => {
    for (const [label, value] of rows) {
      const at = y;
      p.group('TR', () => {
        p.tag('TH', () => doc.font('sans').fontSize(9).fillColor(hex(PALETTE.muted)).text(label.toUpperCase(), x, at, { width: 130, characterSpacing: 0.6 }), { scope: 'Row' });
        p.tag('TD', () => doc.font('serif').fontSize(11).fillColor(hex(PALETTE.ink)).text(value, x + 140, at - 1.5, { width: w - 140 }));
      });
      y += pitch;
    }
  });
  const warning = (title: string, text: string, height: number) => {
    y += 16;
    const at = y;
    p.artifact(() => doc.rect(x, at, w, height).lineWidth(1.2).strokeColor(hex(PALETTE.negative)).stroke());
    p.tag('P', () => {
      doc.font('sansBold').fontSize(11).fillColor(hex(PALETTE.negative)).text(title, x + 14, at + 9, { width: w - 28 });
      doc.font('sans').fontSize(9).text(text, x + 14, at + 25, { width: w - 28 });
    });
    y += height;
  };
  if (c.sandbox) warning('SANDBOX DATA', 'These figures come from the test sandbox, not the live valuation service. Not for client use.', 46);
  if (c.illustrative_rates) warning('ILLUSTRATIVE EXCHANGE RATES', ILLUSTRATIVE_RATES_WARNING, 58);
  p.tag('P', () => doc.font('sans').fontSize(8).fillColor(hex(PALETTE.muted)).text(c.audience === 'internal' ? 'Internal — for the firm only; not to be sent to any client. Values are estimates; see the disclaimer at the end of this report.' : 'Confidential — prepared for the named client only. Values are estimates; see the disclaimer at the end of this report.', x, A4.height - 110, { width: w }));
}

/** The firm's logo: a Figure whose alternative text is the firm's name, fitted into `box` keeping its proportions. */
function drawLogo(p: PdfPages, logo: LogoImage, firmName: string, box: { x: number; y: number; width: number; height: number }): void {
  const scale = Math.min(box.width / logo.width, box.height / logo.height);
  const [w, h] = [logo.width * scale, logo.height * scale];
  p.figure(firmName, { x: box.x, y: box.y, width: w, height: h }, () => {
    p.doc.image(Buffer.from(logo.png.buffer, logo.png.byteOffset, logo.png.byteLength), box.x, box.y, { width: w, height: h });
    return h;
  });
}

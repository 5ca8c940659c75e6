/** The PDF's cover page: the navy band with the portfolio and client, the key references, the sandbox warning. */
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
  p.artifact(() => {
    doc.rect(0, 0, A4.width, bandHeight).fill(hex(PALETTE.navy));
    doc.rect(0, bandHeight, A4.width, 4).fill(hex(PALETTE.gold));
  });
  const x = MARGIN.side + 12;
  const w = A4.width - 2 * x;
  p.tag('P', () => doc.font('sansBold').fontSize(9).fillColor(hex(PALETTE.gold)).text(c.audience === 'internal' ? 'INTERNAL FIRM REPORT — NOT FOR CLIENTS' : 'PRIVATE CLIENT REPORT', x, 96, { width: w, characterSpacing: 2.5 }));
  p.tag('H1', () => doc.font('serifBold').fontSize(28).fillColor('#FFFFFF').text(c.portfolio_name, x, 122, { width: w, lineGap: 2 }));
  doc.moveDown(0.4);
  p.tag('P', () => doc.font('serif').fontSize(13).fillColor('#E8E2D6').text(c.audience === 'internal' ? `Consolidated across ${c.portfolios.length} portfolios, for the firm's own use` : `Prepared for ${c.client_name}`, x, doc.y, { width: w }));
  p.tag('P', () => doc.font('sans').fontSize(10).fillColor('#C9C3B6').text('Valuation of collectible and luxury assets', x, bandHeight - 48, { width: w }));

  p.tag('P', () => doc.font('serif').fontSize(16).fillColor(hex(PALETTE.navy)).text(`Valued as of ${formatLongDate(c.as_of)}`, x, bandHeight + 44, { width: w }));
  let y = bandHeight + 84;
  const rows: [string, string][] = [
    ['Base currency', c.currency],
    ['Report reference', c.report_id],
    ['Generated', formatTimestamp(c.generated_at)],
  ];
  if (c.portfolio_id) rows.push(['Portfolio id', c.portfolio_id]);
  if (c.prepared_by) rows.push(['Prepared by', c.prepared_by]);
  // Label and value pairs: a two-column table whose labels head their rows.
  p.group('Table', () => {
    for (const [label, value] of rows) {
      const at = y;
      p.group('TR', () => {
        p.tag('TH', () => doc.font('sans').fontSize(9).fillColor(hex(PALETTE.muted)).text(label.toUpperCase(), x, at, { width: 130, characterSpacing: 0.6 }), { scope: 'Row' });
        p.tag('TD', () => doc.font('serif').fontSize(11).fillColor(hex(PALETTE.ink)).text(value, x + 140, at - 1.5, { width: w - 140 }));
      });
      y += 24;
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

/** The market dashboard as a one-to-two page PDF: segment signals, 30-day change chart, top movers, alerts. */
import { createWriteStream } from 'node:fs';
import type { DashboardData } from '../report-data';
import { writeAtomically } from './atomic-write';
import { PALETTE } from './palette';
import { dashboardAttachments, type WrittenSiblings } from './pdf-attachments';
import { barAlt, barChart } from './pdf-charts';
import { PdfPages } from './pdf-layout';
import { drawTable } from './pdf-table';
import { drawDisclosures } from './pdf-closing';
import { readable, segmentLabel } from './labels';
import { formatInteger, formatLongDate, formatPercent } from './text-format';

const colourOf = (v: number | null) => (v === null ? PALETTE.muted : v < 0 ? PALETTE.negative : PALETTE.positive);

export async function writeDashboardPdf(data: DashboardData, filePath: string, siblings?: WrittenSiblings): Promise<void> {
  const p = new PdfPages(
    { title: 'Market dashboard', subtitle: `As of ${formatLongDate(data.as_of)}`, reference: data.report_id, sandbox: data.sandbox },
    { Title: `Market dashboard ${data.as_of}` },
    { lang: 'en-GB', created: new Date(data.generated_at), brand: data.brand },
  );
  for (const file of await dashboardAttachments(data, filePath, siblings)) p.attach(file);
  const { doc } = p;
  p.addPage('landscape');
  p.section('Market dashboard', { level: 1 });
  p.paragraph(`Signals for the ten segments as of ${formatLongDate(data.as_of)}. Market validated: ${data.market_validated ? 'yes' : 'no'}.`, { colour: PALETTE.muted, size: 8.5 });
  if (data.sandbox) p.paragraph('SANDBOX DATA — not the live service.', { colour: PALETTE.negative, size: 8.5 });
  p.subheading('30-day price change by segment');
  const y = doc.y;
  const bars = data.segments.map((s) => ({ label: s.segment_name.split(' ').slice(-1)[0] ?? s.segment_name, value: s.change_30d_percent, colour: (s.change_30d_percent ?? 0) < 0 ? PALETTE.negative : p.theme.primary }));
  // The alternative text names each segment in full (the bars carry only its last word).
  const alt = barAlt('30-day price change by segment', data.segments.map((s, i) => ({ ...bars[i]!, label: s.segment_name })));
  p.figure(alt, { x: p.left, y, width: p.width, height: 150 }, () => barChart(doc, p.left + 40, y, p.width - 60, 150, bars));
  doc.y = y + 160;
  drawTable(
    p,
    [
      { label: 'Segment', width: 150 }, { label: 'Momentum', width: 70 }, { label: 'Volume', width: 80 }, { label: 'Sentiment', width: 70 },
      { label: 'Strength', width: 55, align: 'right' }, { label: '7 days', width: 60, align: 'right' }, { label: '30 days', width: 60, align: 'right' },
      { label: '90 days', width: 60, align: 'right' }, { label: 'Sales 30d', width: p.width - 605, align: 'right' },
    ],
    data.segments.map((s) => [
      // The service's codes ("bullish", "very_high") as words: the PDF is read by people, the CSV and JSON keep the codes.
      s.segment_name, readable(s.momentum), readable(s.volume), readable(s.sentiment), s.signal_strength.toFixed(2),
      { text: formatPercent(s.change_7d_percent, 1, true), colour: colourOf(s.change_7d_percent) },
      { text: formatPercent(s.change_30d_percent, 1, true), colour: colourOf(s.change_30d_percent) },
      { text: formatPercent(s.change_90d_percent, 1, true), colour: colourOf(s.change_90d_percent) },
      formatInteger(s.transaction_count_30d),
    ]),
  );
  p.section('Top movers');
  drawTable(
    p,
    [{ label: 'Segment', width: 150 }, { label: 'Brand', width: 200 }, { label: 'Model', width: 250 }, { label: '30 days', width: p.width - 600, align: 'right' }],
    data.top_movers.map((m) => [segmentLabel(m.segment), m.brand, m.model, { text: formatPercent(m.change_30d_percent, 1, true), colour: colourOf(m.change_30d_percent) }]),
  );
  p.section('Active alerts');
  if (data.alerts.length === 0) p.paragraph('No active alerts.', { colour: PALETTE.muted });
  else {
    drawTable(
      p,
      [{ label: 'Severity', width: 80 }, { label: 'Segment', width: 90 }, { label: 'Alert', width: p.width - 290 }, { label: 'Expires', width: 120 }],
      data.alerts.map((a) => [readable(a.severity), segmentLabel(a.segment), { text: a.title, sub: a.message }, a.expires_at.replace('T', ' ').replace(/:\d{2}(\.\d+)?Z$/, ' UTC')]),
      );
  }
  for (const n of data.notes) p.paragraph(n, { colour: PALETTE.muted, size: 8 });
  p.paragraph(data.disclaimer, { size: 8 });
  drawDisclosures(p);
  await writeAtomically(filePath, (tempPath) => p.finish(createWriteStream(tempPath)));
}

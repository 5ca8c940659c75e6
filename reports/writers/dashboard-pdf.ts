/** The market dashboard as a one-to-two page PDF: segment signals, 30-day change chart, top movers, alerts. */
import { createWriteStream } from 'node:fs';
import { DEFAULT_LANGUAGE, translator } from '../../src/i18n';
import { alertExpiry } from './alert-expiry';
import { segmentName } from '../client-words';
import { valueLabel } from './labels';
import type { DashboardData } from '../report-data';
import { writeAtomically } from './atomic-write';
import { PALETTE } from './palette';
import { dashboardAttachments, type WrittenSiblings } from './pdf-attachments';
import { barAlt, barChart } from './pdf-charts';
import { PdfPages } from './pdf-layout';
import type { TracedText } from './pdf-layout-trace';
import { drawTable } from './pdf-table';
import { drawDisclosures } from './pdf-closing';

const colourOf = (v: number | null) => (v === null ? PALETTE.muted : v < 0 ? PALETTE.negative : PALETTE.positive);


/** The dashboard's words in its language (`data.language`, --language); /Lang says it (the house English is en-GB). */
/** `trace`: tests' record of where each text is drawn (pdf-layout-trace.ts). */
export async function writeDashboardPdf(data: DashboardData, filePath: string, siblings?: WrittenSiblings, trace?: TracedText[]): Promise<void> {
  const tr = translator(data.language ?? DEFAULT_LANGUAGE);
  const change = (v: number | null) => ({ text: tr.percent(v, { digits: 1, signed: true }), colour: colourOf(v) });
  const p = new PdfPages(
    { title: tr.t('dashboard.title'), subtitle: tr.t('dashboard.subtitle', { date: tr.date(data.as_of) }), reference: data.report_id, sandbox: data.sandbox, tr },
    { Title: tr.t('dashboard.document_title', { date: data.as_of }) },
    { lang: tr.lang === 'en' ? 'en-GB' : tr.lang, created: new Date(data.generated_at), brand: data.brand, trace },
  );
  for (const file of await dashboardAttachments(data, filePath, siblings)) p.attach(file);
  const { doc } = p;
  p.addPage('landscape');
  p.section(tr.t('dashboard.title'), { level: 1 });
  p.paragraph(tr.t('dashboard.intro', { date: tr.date(data.as_of), validated: data.market_validated ? 'yes' : 'no' }), { colour: PALETTE.muted, size: 8.5 });
  if (data.sandbox) p.paragraph(tr.t('dashboard.sandbox_banner'), { colour: PALETTE.negative, size: 8.5 });
  const chartTitle = tr.t('dashboard.chart_title');
  p.subheading(chartTitle);
  const y = doc.y;
  // Under each bar the segment name's last word ("Watches"); a language without spaces between words gets the whole name, cut to fit.
  const bars = data.segments.map((s) => ({ label: s.segment_name.split(' ').slice(-1)[0] ?? s.segment_name, value: s.change_30d_percent, colour: (s.change_30d_percent ?? 0) < 0 ? PALETTE.negative : p.theme.primary }));
  // The alternative text names each segment in full (the bars carry only its last word).
  const alt = barAlt(chartTitle, data.segments.map((s, i) => ({ ...bars[i]!, label: s.segment_name })));
  p.figure(alt, { x: p.left, y, width: p.width, height: 150 }, () => barChart(doc, p.left + 40, y, p.width - 60, 150, bars));
  doc.y = y + 160;
  drawTable(
    p,
    [
      { label: tr.t('common.segment'), width: 150 }, { label: tr.t('columns.momentum'), width: 70 }, { label: tr.t('columns.volume'), width: 80 },
      { label: tr.t('columns.sentiment'), width: 70 }, { label: tr.t('columns.signal_strength'), width: 55, align: 'right' },
      { label: tr.t('columns.change_7d'), width: 60, align: 'right' }, { label: tr.t('columns.change_30d'), width: 60, align: 'right' },
      { label: tr.t('columns.change_90d'), width: 60, align: 'right' }, { label: tr.t('columns.sales_30d'), width: p.width - 605, align: 'right' },
    ],
    data.segments.map((s) => [
      // The service's codes ("bullish", "very_high") as words, the workbook's: the PDF is read by people, the CSV and JSON keep the codes.
      s.segment_name, valueLabel(s.momentum, tr), valueLabel(s.volume, tr), valueLabel(s.sentiment, tr), tr.number(s.signal_strength, 2),
      change(s.change_7d_percent), change(s.change_30d_percent), change(s.change_90d_percent),
      tr.number(s.transaction_count_30d),
    ]),
  );
  p.section(tr.t('dashboard.top_movers'));
  drawTable(
    p,
    [
      { label: tr.t('common.segment'), width: 150 }, { label: tr.t('columns.brand'), width: 200 }, { label: tr.t('columns.model'), width: 250 },
      { label: tr.t('columns.change_30d'), width: p.width - 600, align: 'right' },
    ],
    data.top_movers.map((m) => [segmentName(tr, m.segment), m.brand, m.model, change(m.change_30d_percent)]),
  );
  p.section(tr.t('dashboard.active_alerts'));
  if (data.alerts.length === 0) p.paragraph(tr.t('dashboard.no_alerts'), { colour: PALETTE.muted });
  else {
    drawTable(
      p,
      [
        { label: tr.t('columns.severity'), width: 80 }, { label: tr.t('common.segment'), width: 90 }, { label: tr.t('columns.alert'), width: p.width - 290 },
        { label: tr.t('columns.expires'), width: 120 },
      ],
      // The alert's title and message are the service's words, shown as it gave them.
      data.alerts.map((a) => [valueLabel(a.severity, tr), segmentName(tr, a.segment), { text: a.title, sub: a.message }, alertExpiry(tr, a.expires_at)]),
    );
  }
  for (const n of data.notes) p.paragraph(n, { colour: PALETTE.muted, size: 8 });
  p.paragraph(data.disclaimer, { size: 8 });
  drawDisclosures(p);
  await writeAtomically(filePath, (tempPath) => p.finish(createWriteStream(tempPath)));
}

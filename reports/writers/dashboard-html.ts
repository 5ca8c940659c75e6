/**
 * The market dashboard as one self-contained web page (issue 38): the PDF's segment signals,
 * 30-day change chart, top movers and active alerts (dashboard-pdf.ts), from the same
 * DashboardData and translator, in the report page's shell and styles.
 */
import { DEFAULT_LANGUAGE, translator } from '../../src/i18n';
import { alertExpiry } from './alert-expiry';
import { segmentName } from '../client-words';
import type { DashboardData } from '../report-data';
import { themeOf } from './brand-theme';
import { barAlt } from './chart-words';
import { barFigure } from './html-charts';
import { paragraphs } from './html-closing';
import { logoHtml } from './html-cover';
import { writeDocument } from './html-document';
import { html } from './html-escape';
import type { PagePart } from './html-sections';
import { htmlTable, type HtmlCell } from './html-table';
import { valueLabel } from './labels';


export async function writeDashboardHtml(data: DashboardData, filePath: string): Promise<void> {
  const tr = translator(data.language ?? DEFAULT_LANGUAGE);
  const theme = themeOf(data.brand);
  const change = (v: number | null): HtmlCell => ({ text: tr.percent(v, { digits: 1, signed: true }), value: v, sign: v });
  const signals = htmlTable({
    caption: tr.t('dashboard.title'),
    columns: [
      { label: tr.t('common.segment') }, { label: tr.t('columns.momentum') }, { label: tr.t('columns.volume') }, { label: tr.t('columns.sentiment') },
      { label: tr.t('columns.signal_strength'), numeric: true }, { label: tr.t('columns.change_7d'), numeric: true }, { label: tr.t('columns.change_30d'), numeric: true },
      { label: tr.t('columns.change_90d'), numeric: true }, { label: tr.t('columns.sales_30d'), numeric: true },
    ],
    rows: data.segments.map((s) => [
      s.segment_name, valueLabel(s.momentum, tr), valueLabel(s.volume, tr), valueLabel(s.sentiment, tr), { text: tr.number(s.signal_strength, 2), value: s.signal_strength },
      change(s.change_7d_percent), change(s.change_30d_percent), change(s.change_90d_percent), { text: tr.number(s.transaction_count_30d), value: s.transaction_count_30d },
    ]),
  });
  const movers = htmlTable({
    caption: tr.t('dashboard.top_movers'),
    columns: [{ label: tr.t('common.segment') }, { label: tr.t('columns.brand') }, { label: tr.t('columns.model') }, { label: tr.t('columns.change_30d'), numeric: true }],
    rows: data.top_movers.map((m) => [segmentName(tr, m.segment), m.brand, m.model, change(m.change_30d_percent)]),
  });
  const alerts =
    data.alerts.length === 0
      ? html`<p class="muted">${tr.t('dashboard.no_alerts')}</p>`
      : htmlTable({
          caption: tr.t('dashboard.active_alerts'),
          columns: [{ label: tr.t('columns.severity') }, { label: tr.t('common.segment') }, { label: tr.t('columns.alert') }, { label: tr.t('columns.expires') }],
          // The alert's title and message are the service's words, shown as it gave them.
          rows: data.alerts.map((a) => [valueLabel(a.severity, tr), segmentName(tr, a.segment), { text: a.title, sub: a.message }, alertExpiry(tr, a.expires_at)]),
        });
  const bars = data.segments.map((s) => ({ label: s.segment_name, value: s.change_30d_percent, colour: theme.primary }));
  const chartTitle = tr.t('dashboard.chart_title');
  const chart = barFigure({ id: 'change-chart', title: chartTitle, caption: barAlt(chartTitle, bars, tr), bars, format: (v) => tr.percent(v, { digits: 1, signed: true }), columns: [tr.t('common.segment'), tr.t('columns.change_30d')], tr });
  const parts: PagePart[] = [
    { id: 'signals', title: chartTitle, body: html`${chart}${signals}` },
    { id: 'movers', title: tr.t('dashboard.top_movers'), body: movers },
    { id: 'alerts', title: tr.t('dashboard.active_alerts'), body: html`${alerts}${paragraphs(data.notes, 'muted')}` },
    { id: 'disclaimer', title: tr.t('pdf.disclaimer'), body: paragraphs([data.disclaimer]) },
  ];
  const header = html`<header class="cover">
${logoHtml(data.brand)}
<h1>${tr.t('dashboard.title')}</h1>
<p>${tr.t('dashboard.subtitle', { date: tr.date(data.as_of) })}</p>
</header>`;
  const lead = html`<p class="muted">${tr.t('dashboard.intro', { date: tr.date(data.as_of), validated: data.market_validated ? 'yes' : 'no' })}</p>
${data.sandbox ? html`<p class="banner" role="note">${tr.t('dashboard.sandbox_banner')}</p>` : ''}`;
  await writeDocument(filePath, { title: tr.t('dashboard.document_title', { date: data.as_of }), header, lead, parts, footer: data.report_id, brand: data.brand }, tr);
}

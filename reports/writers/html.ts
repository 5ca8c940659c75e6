/**
 * The portfolio report as one self-contained web page (issue 38): the PDF's sections and figures
 * from the same ReportData and translator, for a screen from a phone to a desktop, and for print.
 * String building only (no DOM, no browser): the page costs a fraction of the PDF.
 * The document around the parts: html-document.ts; each part its own html-*.ts.
 */
import { brandText } from '../../src/brand';
import type { ReportData } from '../report-data';
import { themeOf } from './brand-theme';
import { barAlt } from './chart-words';
import { barFigure } from './html-charts';
import { coverHtml } from './html-cover';
import { disclosuresHtml, errorsHtml, paragraphs } from './html-closing';
import { writeDocument } from './html-document';
import { html } from './html-escape';
import { portfolioPerformanceHtml } from './html-history';
import { holdingsHtml } from './html-holdings';
import { insuranceHtml } from './html-insurance';
import { marketPerformanceHtml } from './html-performance';
import { exitHtml, projectionsHtml } from './html-projections';
import type { PagePart } from './html-sections';
import { allocationHtml, figureNotesHtml, summaryCards } from './html-summary';
import { reportTranslator } from './report-language';

export async function writeHtml(data: ReportData, filePath: string): Promise<void> {
  const c = data.cover;
  const tr = reportTranslator(data);
  const theme = themeOf(data.brand);
  const warnings: string[] = [];
  const to = { portfolio: c.portfolio_name, warn: (line: string) => warnings.push(line) };
  const cover = coverHtml(data, tr, to.warn);
  const disclosures = data.brand ? brandText(data.brand, 'disclosures', tr.lang, to) : [];
  const firmFooter = data.brand ? brandText(data.brand, 'footer', tr.lang, to) : undefined;
  const allocationBars = data.allocation.map((a, i) => ({ label: a.segment_name, value: a.percentage, colour: theme.series[i % theme.series.length]! }));
  const allocationChart = barFigure({
    id: 'allocation-chart',
    title: tr.t('pdf.allocation'),
    caption: tr.t('html.allocation_chart'),
    bars: allocationBars,
    format: (v) => tr.percent(v),
    columns: [tr.t('common.segment'), tr.t('pdf.col_share')],
    tr,
  });
  const performance = portfolioPerformanceHtml(data, tr, theme);
  const insurance = insuranceHtml(data, tr);
  const parts: PagePart[] = [
    { id: 'summary', title: tr.t('pdf.summary'), body: html`${summaryCards(data, tr)}${allocationHtml(data, tr, allocationChart)}${figureNotesHtml(data, tr)}` },
    ...(performance ? [{ id: 'portfolio-performance', title: tr.t('pdf.portfolio_performance'), body: performance }] : []),
    { id: 'market', title: tr.t('pdf.market_title'), body: marketPerformanceHtml(data, tr, theme) },
    { id: 'holdings-part', title: tr.t('common.holdings'), body: holdingsHtml(data, tr) },
    ...(insurance ? [{ id: 'insurance', title: tr.t('insurance.title'), body: insurance }] : []),
    { id: 'projections', title: tr.t('pdf.projections'), body: projectionsHtml(data, tr) },
    { id: 'exit', title: tr.t('pdf.exit_analysis'), body: exitHtml(data, tr) },
    { id: 'not-valued', title: tr.t('pdf.rows_not_valued'), body: errorsHtml(data, tr) },
    { id: 'method', title: tr.t('pdf.method'), body: paragraphs(data.method_notes) },
    { id: 'disclaimer', title: tr.t('pdf.disclaimer'), body: html`${paragraphs([data.disclaimer])}${disclosuresHtml(data.brand?.firmName, disclosures, tr, 'disclosures')}` },
  ];
  const title = c.audience === 'internal' ? tr.t('pdf.info_title_internal', { date: c.as_of }) : tr.t('pdf.info_title', { portfolio: c.portfolio_name, date: c.as_of });
  await writeDocument(filePath, { title, header: cover.header, lead: cover.facts, parts, footer: [firmFooter, c.report_id].filter(Boolean).join(' · '), brand: data.brand }, tr);
  // The firm's words missing in the client's language: said as the PDF says them.
  for (const line of new Set(warnings)) process.emitWarning(line, 'ReportWarning');
}

/**
 * The portfolio report as one self-contained web page (issue 38): the PDF's sections and figures
 * from the same ReportData and translator, for a screen from a phone to a desktop, and for print.
 * String building only (no DOM, no browser): the page costs a fraction of the PDF.
 * Shell and CSP: html-page.ts; styles: html-styles.ts; parts: html-cover/summary/holdings/closing.ts.
 */
import { brandText } from '../../src/brand';
import type { ReportData } from '../report-data';
import { themeOf } from './brand-theme';
import { html } from './html-escape';
import { coverHtml } from './html-cover';
import { disclosuresHtml, errorsHtml, paragraphs } from './html-closing';
import { holdingsHtml } from './html-holdings';
import { writeHtmlPage } from './html-page';
import { sectionHtml, tocHtml, type PagePart } from './html-sections';
import { pageStyles } from './html-styles';
import { allocationHtml, figureNotesHtml, summaryCards } from './html-summary';
import { documentLang, reportTranslator } from './report-language';

export async function writeHtml(data: ReportData, filePath: string): Promise<void> {
  const c = data.cover;
  const tr = reportTranslator(data);
  const warnings: string[] = [];
  const warn = (line: string) => warnings.push(line);
  const cover = coverHtml(data, tr, warn);
  const disclosures = data.brand ? brandText(data.brand, 'disclosures', tr.lang, { portfolio: c.portfolio_name, warn }) : [];
  const footer = data.brand ? brandText(data.brand, 'footer', tr.lang, { portfolio: c.portfolio_name, warn }) : undefined;
  const parts: PagePart[] = [
    { id: 'summary', title: tr.t('pdf.summary'), body: html`${summaryCards(data, tr)}${allocationHtml(data, tr, '')}${figureNotesHtml(data, tr)}` },
    { id: 'holdings-part', title: tr.t('common.holdings'), body: holdingsHtml(data, tr) },
    { id: 'not-valued', title: tr.t('pdf.rows_not_valued'), body: errorsHtml(data, tr) },
    { id: 'method', title: tr.t('pdf.method'), body: paragraphs(data.method_notes) },
    { id: 'disclaimer', title: tr.t('pdf.disclaimer'), body: html`${paragraphs([data.disclaimer])}${disclosuresHtml(data.brand?.firmName, disclosures, tr, 'disclosures')}` },
  ];
  const title = c.audience === 'internal' ? tr.t('pdf.info_title_internal', { date: c.as_of }) : tr.t('pdf.info_title', { portfolio: c.portfolio_name, date: c.as_of });
  const body = html`${cover.header}
${tocHtml(tr.t('pdf.summary'), parts)}
<main id="main">
${cover.facts}
${parts.map(sectionHtml)}
</main>
<footer><p>${footer ?? ''} ${c.report_id}</p></footer>`;
  await writeHtmlPage(filePath, { lang: documentLang(tr.lang), dir: tr.dir, title, style: pageStyles(themeOf(data.brand), ''), body });
  // The firm's words missing in the client's language: said once, as the PDF says them.
  for (const line of new Set(warnings)) process.emitWarning(line, 'ReportWarning');
}

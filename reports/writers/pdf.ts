/**
 * The portfolio report as a PDF for the client: cover, summary with key figures and vector
 * charts, the portfolio's own performance (with a history: pdf-history.ts), the market measure
 * against benchmarks, the holdings table (landscape, header repeated on
 * every page, total at the end), the insurance review when the report has one (pdf-insurance.ts), projections, exit analysis, errors, method and disclaimer.
 * Fonts are embedded from reports/fonts; pages say "Page n of N"; sections are in the outline.
 * Tagged PDF/UA-1 and PDF/A-3a (pdf-layout.ts, pdf-archive.ts), with the report's JSON and CSV
 * embedded (pdf-attachments.ts).
 */
import { createWriteStream } from 'node:fs';
import type { ReportData } from '../report-data';
import { writeAtomically } from './atomic-write';
import { reportAttachments, type WrittenSiblings } from './pdf-attachments';
import { drawErrorsAndNotes } from './pdf-closing';
import { drawCover } from './pdf-cover';
import { drawHoldings } from './pdf-holdings';
import { drawInsuranceReview } from './pdf-insurance';
import { drawPortfolioPerformance } from './pdf-history';
import { PdfPages } from './pdf-layout';
import type { TracedText } from './pdf-layout-trace';
import { drawPerformance } from './pdf-performance';
import { drawEnrichment } from './pdf-projections-exit';
import { drawFigureNotes, drawSummary } from './pdf-summary';
import { brandText } from '../../src/brand';
import { documentLang, reportTranslator } from './report-language';

export { PDF_MAX_HOLDINGS } from './pdf-holdings';
export { PDF_MAX_ERRORS } from './pdf-closing';

export { REPORT_LANG } from './report-language';

/** `plain`: the benchmark's baseline (see DocumentOptions); `siblings`: this run's JSON and CSV, embedded as written; `trace`: tests' record of where each text is drawn. */
export async function writePdf(data: ReportData, filePath: string, options: { plain?: boolean; siblings?: WrittenSiblings; trace?: TracedText[] } = {}): Promise<void> {
  const c = data.cover;
  const tr = reportTranslator(data);
  const count = c.portfolios.length;
  const subtitle = tr.t('pdf.doc_subtitle', { date: tr.date(c.as_of), currency: c.currency });
  // The firm's words in the client's language; a missing one falls back to the firm's with a warning said on stderr when the PDF is finished.
  const warnings: string[] = [];
  const to = { portfolio: c.portfolio_name, warn: (line: string) => warnings.push(line) };
  const brand = data.brand && {
    ...data.brand,
    coverTitle: brandText(data.brand, 'cover_title', tr.lang, to),
    footer: brandText(data.brand, 'footer', tr.lang, to),
    disclosures: brandText(data.brand, 'disclosures', tr.lang, to),
  };
  const pages = new PdfPages(
    c.audience === 'internal'
      ? { title: tr.t('pdf.doc_title_internal', { count }), subtitle, reference: tr.t('pdf.doc_reference_internal', { reference: c.report_id }), sandbox: c.sandbox, illustrativeRates: c.illustrative_rates, tr }
      : { title: c.client_name === c.portfolio_name ? c.portfolio_name : `${c.portfolio_name} — ${c.client_name}`, subtitle, reference: c.report_id, sandbox: c.sandbox, illustrativeRates: c.illustrative_rates, tr },
    c.audience === 'internal'
      ? { Title: tr.t('pdf.info_title_internal', { date: c.as_of }), Author: c.prepared_by, Subject: tr.t('pdf.info_subject_internal', { count }) }
      : { Title: tr.t('pdf.info_title', { portfolio: c.portfolio_name, date: c.as_of }), Author: c.prepared_by, Subject: tr.t('pdf.info_subject', { client: c.client_name }) },
    { lang: documentLang(tr.lang), created: new Date(c.generated_at), plain: options.plain, brand, trace: options.trace },
  );
  pages.warnings.push(...warnings);
  if (!options.plain) for (const file of await reportAttachments(data, filePath, options.siblings)) pages.attach(file);
  drawCover(pages, data);
  drawSummary(pages, data);
  drawFigureNotes(pages, data);
  drawPortfolioPerformance(pages, data);
  drawPerformance(pages, data);
  drawHoldings(pages, data);
  drawInsuranceReview(pages, data);
  drawEnrichment(pages, data);
  drawErrorsAndNotes(pages, data);
  await writeAtomically(filePath, (tempPath) => pages.finish(createWriteStream(tempPath)));
}

/**
 * The portfolio report as a PDF for the client: cover, summary with key figures and vector
 * charts, the portfolio's own performance (with a history: pdf-history.ts), the market measure
 * against benchmarks, the holdings table (landscape, header repeated on
 * every page, total at the end), projections, exit analysis, errors, method and disclaimer.
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
import { drawPortfolioPerformance } from './pdf-history';
import { PdfPages } from './pdf-layout';
import { drawPerformance } from './pdf-performance';
import { drawEnrichment } from './pdf-projections-exit';
import { drawFigureNotes, drawSummary } from './pdf-summary';
import { formatLongDate } from './text-format';

export { PDF_MAX_HOLDINGS } from './pdf-holdings';
export { PDF_MAX_ERRORS } from './pdf-closing';

/** The language of the report's text (English, British spelling); a translated report passes its own. */
export const REPORT_LANG = 'en-GB';

/** `plain`: the benchmark's baseline (see DocumentOptions); `siblings`: this run's JSON and CSV, embedded as written. */
export async function writePdf(data: ReportData, filePath: string, options: { plain?: boolean; siblings?: WrittenSiblings } = {}): Promise<void> {
  const c = data.cover;
  const pages = new PdfPages(
    c.audience === 'internal'
      ? { title: `Internal consolidated report — ${c.portfolios.length} portfolios`, subtitle: `Valued as of ${formatLongDate(c.as_of)} · ${c.currency}`, reference: `${c.report_id} · INTERNAL, not for clients`, sandbox: c.sandbox, illustrativeRates: c.illustrative_rates }
      : { title: c.client_name === c.portfolio_name ? c.portfolio_name : `${c.portfolio_name} — ${c.client_name}`, subtitle: `Valued as of ${formatLongDate(c.as_of)} · ${c.currency}`, reference: c.report_id, sandbox: c.sandbox, illustrativeRates: c.illustrative_rates },
    c.audience === 'internal'
      ? { Title: `Internal consolidated report ${c.as_of}`, Author: c.prepared_by, Subject: `Consolidated valuation of ${c.portfolios.length} portfolios, for the firm only` }
      : { Title: `${c.portfolio_name} — portfolio report ${c.as_of}`, Author: c.prepared_by, Subject: `Valuation report for ${c.client_name}` },
    { lang: data.language && data.language !== 'en' ? data.language : REPORT_LANG, created: new Date(c.generated_at), plain: options.plain, brand: data.brand },
  );
  if (!options.plain) for (const file of await reportAttachments(data, filePath, options.siblings)) pages.attach(file);
  drawCover(pages, data);
  drawSummary(pages, data);
  drawFigureNotes(pages, data);
  drawPortfolioPerformance(pages, data);
  drawPerformance(pages, data);
  drawHoldings(pages, data);
  drawEnrichment(pages, data);
  drawErrorsAndNotes(pages, data);
  await writeAtomically(filePath, (tempPath) => pages.finish(createWriteStream(tempPath)));
}

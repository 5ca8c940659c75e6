/** The page's closing parts (pdf-closing.ts): rows not valued, method, disclaimer and the firm's disclosures. */
import type { Translator } from '../../src/i18n';
import type { ReportData } from '../report-data';
import { html, type SafeHtml } from './html-escape';
import { htmlTable } from './html-table';

export function errorsHtml(data: ReportData, tr: Translator): SafeHtml {
  if (data.errors.length === 0) return html`<p class="muted">${tr.t('pdf.all_valued')}</p>`;
  const internal = data.cover.audience === 'internal';
  return htmlTable({
    caption: tr.t('pdf.rows_not_valued'),
    columns: [...(internal ? [{ label: tr.t('pdf.col_portfolio') }] : []), { label: tr.t('pdf.col_row'), numeric: true }, { label: tr.t('pdf.col_field') }, { label: tr.t('pdf.col_problem') }],
    rows: data.errors.map((e) => [...(internal ? [e.portfolio] : []), e.row === null ? '–' : String(e.row), e.field || '–', e.message]),
  });
}

/** Paragraphs of text, each escaped. */
export const paragraphs = (texts: readonly string[], className?: string): SafeHtml => html`${texts.map((t) => html`<p${className ? html` class="${className}"` : ''}>${t}</p>`)}`;

/** The firm's own disclosures under their heading, or nothing. */
export function disclosuresHtml(firmName: string | undefined, disclosures: readonly string[], tr: Translator, headingId: string): SafeHtml | '' {
  if (!firmName || disclosures.length === 0) return '';
  return html`<h3 id="${headingId}">${tr.t('pdf.disclosures', { firm: firmName })}</h3>${paragraphs(disclosures)}`;
}

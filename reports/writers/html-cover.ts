/**
 * The page's header (the PDF's cover, pdf-cover.ts): the firm's logo as a data: URI (the brand's
 * logo was read, checked and size-limited when the brand was loaded), the tagline, the portfolio
 * as the page's one h1, the client, the references, and the sandbox / illustrative-rates warnings.
 */
import { brandText, type Brand } from '../../src/brand';
import { coverFacts } from './cover-facts';
import type { Translator } from '../../src/i18n';
import type { ReportData } from '../report-data';
import { html, type SafeHtml } from './html-escape';

/** The logo as an <img> whose alternative text is the firm's name. */
export function logoHtml(brand: Brand | undefined): SafeHtml | '' {
  const logo = brand?.logo ?? brand?.logoDark;
  if (!brand || !logo) return '';
  const src = `data:image/png;base64,${Buffer.from(logo.png.buffer, logo.png.byteOffset, logo.png.byteLength).toString('base64')}`;
  return html`<div class="logo"><img src="${src}" alt="${brand.firmName}" width="${logo.width}" height="${logo.height}"></div>`;
}

/** The sandbox and illustrative-rates warnings, as on the PDF's cover and every page. */
export function warningBanners(c: Pick<ReportData['cover'], 'sandbox' | 'illustrative_rates'>, tr: Translator): SafeHtml {
  return html`${c.sandbox ? html`<p class="banner" role="note"><strong>${tr.t('pdf.sandbox_title')}</strong>${tr.t('pdf.sandbox_text')}</p>` : ''}${
    c.illustrative_rates ? html`<p class="banner" role="note"><strong>${tr.t('pdf.illustrative_title')}</strong>${tr.t('pdf.illustrative_text')}</p>` : ''
  }`;
}

/** The header (banded, like the PDF's cover) and the references that open the main content. */
export function coverHtml(data: ReportData, tr: Translator, warn: (line: string) => void): { header: SafeHtml; facts: SafeHtml } {
  const c = data.cover;
  const brand = data.brand;
  const to = { portfolio: c.portfolio_name, warn };
  const internal = c.audience === 'internal';
  const tagline = internal ? tr.t('pdf.cover_tagline_internal') : ((brand && brandText(brand, 'cover_title', tr.lang, to)) ?? tr.t('pdf.cover_tagline'));
  const rows = coverFacts(c, brand, tr, warn);
  const header = html`<header class="cover">
${logoHtml(brand)}
<p class="tagline">${tagline}</p>
<h1>${c.portfolio_name}</h1>
<p>${internal ? tr.t('pdf.cover_consolidated', { count: c.portfolios.length }) : tr.t('pdf.cover_prepared_for', { client: c.client_name })}</p>
<p>${brand ? tr.t('pdf.cover_service_firm', { firm: brand.firmName }) : tr.t('pdf.cover_service')}</p>
<p class="valued">${tr.t('common.valued_as_of', { date: tr.date(c.as_of) })}</p>
</header>`;
  return { header, facts: html`${factsHtml(rows)}${warningBanners(c, tr)}<p class="muted">${tr.t(internal ? 'pdf.confidential_internal' : 'pdf.confidential')}</p>` };
}

/** Label and value pairs as a definition list. */
export function factsHtml(rows: readonly (readonly [string, string])[]): SafeHtml {
  return html`<dl class="facts">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
}

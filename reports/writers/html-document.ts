/**
 * What the report page and the dashboard page share around their parts: the skip link, the
 * banded header, the table of contents, main and footer; the fonts subset to the page's
 * characters; the style sheet in the theme; the script; written through the CSP shell.
 */
import type { Brand } from '../../src/brand';
import type { Translator } from '../../src/i18n';
import { themeOf } from './brand-theme';
import { escapeHtml, html, type SafeHtml } from './html-escape';
import { fontFaces } from './html-fonts';
import { pageHtml } from './html-page';
import { PAGE_SCRIPT } from './html-script';
import { sectionHtml, tocHtml, type PagePart } from './html-sections';
import { pageStyles } from './html-styles';
import { streamTextFile } from './chunked-writer';
import { documentLang } from './report-language';

export interface PageContent {
  title: string;
  header: SafeHtml;
  /** What opens the main content before the parts (references, banners). */
  lead: SafeHtml;
  parts: readonly PagePart[];
  footer: string;
  brand?: Brand;
}

/** The page as text: the fonts carry only the characters its body and title use. */
export async function documentHtml(c: PageContent, tr: Translator): Promise<string> {
  const body = html`<a class="skip" href="#main">${tr.t('html.skip_link')}</a>
${c.header}
${tocHtml(tr.t('html.contents'), c.parts)}
<main id="main" tabindex="-1">
${c.lead}
${c.parts.map(sectionHtml)}
</main>
<footer><p>${c.footer}</p></footer>`;
  const lang = documentLang(tr.lang);
  const faces = await fontFaces(escapeHtml(c.title) + body.markup, lang, c.brand);
  return pageHtml({ lang, dir: tr.dir, title: c.title, style: pageStyles(themeOf(c.brand), faces), script: PAGE_SCRIPT, body });
}

export async function writeDocument(filePath: string, c: PageContent, tr: Translator): Promise<void> {
  const text = await documentHtml(c, tr);
  await streamTextFile(filePath, async (out) => {
    const wait = out.text(text);
    if (wait) await wait;
  });
}

/** The page's parts: each a <section> with its h2, listed in the page's table of contents. */
import { html, type SafeHtml } from './html-escape';

export interface PagePart {
  id: string;
  title: string;
  body: SafeHtml;
}

export const sectionHtml = (p: PagePart): SafeHtml => html`<section class="part" aria-labelledby="${p.id}">
<h2 id="${p.id}">${p.title}</h2>
${p.body}
</section>`;

/** The table of contents: a labelled nav of links to the parts. */
export const tocHtml = (label: string, parts: readonly PagePart[]): SafeHtml =>
  html`<nav class="toc" aria-label="${label}"><ul>${parts.map((p) => html`<li><a href="#${p.id}">${p.title}</a></li>`)}</ul></nav>`;

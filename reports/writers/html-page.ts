/**
 * The web page's shell (issue 38): doctype, `lang`/`dir`, viewport, and a Content-Security-Policy
 * that allows only what the file holds, the inline style sheet and script by their sha256
 * (computed here from the very text written), images and fonts as data: URIs. No other source is
 * allowed, so nothing the file might contain could load or run anything else.
 */
import { createHash } from 'node:crypto';
import { html, trusted, type SafeHtml } from './html-escape';

export interface HtmlPage {
  /** The page's language (documentLang) and direction. */
  lang: string;
  dir: 'ltr' | 'rtl';
  title: string;
  /** The style sheet (the writer's own text, never input). */
  style: string;
  /** The one script, or none. */
  script?: string;
  body: SafeHtml;
}

/** The CSP source of an inline block: 'sha256-<base64>' of its exact text. */
export const cspHash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The policy for a page with this style sheet and script: nothing but them, and data: images and fonts. */
export function contentSecurityPolicy(style: string, script: string | undefined): string {
  return [
    "default-src 'none'",
    `style-src ${cspHash(style)}`,
    `script-src ${script === undefined ? "'none'" : cspHash(script)}`,
    'img-src data:',
    'font-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The whole document as text. */
export function pageHtml(page: HtmlPage): string {
  const doc = html`<!doctype html>
<html lang="${page.lang}" dir="${page.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(page.style, page.script)}">
<meta name="referrer" content="no-referrer">
<title>${page.title}</title>
<style>${trusted(page.style)}</style>
</head>
<body>
${page.body}
${page.script === undefined ? '' : html`<script>${trusted(page.script)}</script>`}
</body>
</html>
`;
  return doc.markup;
}

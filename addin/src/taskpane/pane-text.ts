import type { MessageKey, Translator } from '../../../src/i18n';

/** The attribute naming an element's catalogue message: its text is the message in the pane's language. */
export const TEXT_ATTRIBUTE = 'data-i18n';

/**
 * Puts the pane's fixed words into the translator's language: every element marked with
 * data-i18n="<area>.<key>" gets that message as its text, and the page its language and
 * direction (`dir="rtl"` for Arabic mirrors the layout: the CSS uses inline-start/end, not left/right).
 * A key the catalogues lack throws (a bug in the page, never shown to a user as a key).
 */
export function localisePane(doc: Document, tr: Translator): void {
  doc.documentElement.lang = tr.lang;
  doc.documentElement.dir = tr.dir;
  for (const el of doc.querySelectorAll<HTMLElement>(`[${TEXT_ATTRIBUTE}]`)) {
    el.textContent = tr.t(el.getAttribute(TEXT_ATTRIBUTE) as MessageKey);
  }
  // The help page shows the section of the language its fragment names (addin/build/help-page.ts).
  const help = doc.getElementById('help-link');
  if (help) help.setAttribute('href', `help.html#${tr.lang}`);
}

import { DEFAULT_LANGUAGE, asLanguage, translator, type Language, type Translator } from '../../../src/i18n';

/** The catalogue language of each primary subtag Office reports that the add-in speaks. */
const BY_PRIMARY: Record<string, Language> = { de: 'de', fr: 'fr', it: 'it', es: 'es', ja: 'ja', ar: 'ar' };

/** Simplified Chinese regions and scripts; Traditional Chinese (zh-TW, zh-HK, zh-Hant) has no catalogue and gets English. */
const SIMPLIFIED_CHINESE = /^zh(-hans(-.*)?|-cn|-sg)?$/i;

/**
 * The add-in's language for Excel's display language (`Office.context.displayLanguage`, a
 * culture name such as "de-DE"): a tag the catalogues have as such (de-CH, fr-CH, en-GB), else
 * its language (de-DE → de, fr-FR → fr, ja-JP → ja, ar-SA → ar), zh-CN → zh-Hans, anything else
 * English.
 */
export function languageOfDisplay(tag: string | undefined | null): Language {
  if (typeof tag !== 'string' || tag.trim() === '') return DEFAULT_LANGUAGE;
  const exact = asLanguage(tag);
  if (exact) return exact;
  const t = tag.trim().replace(/_/g, '-');
  if (SIMPLIFIED_CHINESE.test(t)) return 'zh-Hans';
  return BY_PRIMARY[t.split('-')[0]!.toLowerCase()] ?? DEFAULT_LANGUAGE;
}

interface OfficeGlobals {
  Office?: { context?: { displayLanguage?: unknown } };
  /** office.js's own reading of the host information Excel gives the page (its culture: "de-de"), from which it loads its own strings. */
  OSF?: { _OfficeAppFactory?: { getHostInfo?: () => { hostLocale?: unknown } } };
}

/**
 * Excel's display language: `Office.context.displayLanguage` once Office is initialised; before
 * that (and where the host's handshake has not happened) the culture office.js read from the host
 * information Excel gives the page, which is the same display language. Undefined outside Office (Node tests).
 */
export function officeDisplayLanguage(): string | undefined {
  try {
    const g = globalThis as OfficeGlobals;
    const tag = g.Office?.context?.displayLanguage;
    if (typeof tag === 'string' && tag !== '') return tag;
    const hostLocale = g.OSF?._OfficeAppFactory?.getHostInfo?.().hostLocale;
    return typeof hostLocale === 'string' && hostLocale !== '' ? hostLocale : undefined;
  } catch {
    return undefined;
  }
}

/** The translator of Excel's display language, read at each call: the pane and the cells speak what Excel speaks. */
export function addinTranslator(): Translator {
  return translator(languageOfDisplay(officeDisplayLanguage()));
}

/**
 * The header every request of the add-in's pages to its host carries: Excel's display language
 * (read at each request), so the host says its own sentences in it (addin/server/host-text.ts).
 * The browser's own Accept-Language names the browser's language, which need not be Excel's.
 */
export function displayLanguageHeader(): { 'accept-language': string } {
  return { 'accept-language': addinTranslator().lang };
}

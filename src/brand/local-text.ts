/**
 * The firm's words in the client's language (issue 36): the brand file's cover_title, footer and
 * disclosures, and the managers' titles, may be one text or one per language
 * ({"en": "…", "de": "…"}). A client document takes the text of its language (or of the
 * language it is a variant of: de-CH reads de), else the firm's default language's, with a
 * warning naming the portfolio.
 */
import { z } from 'zod';
import { LANGUAGES, asLanguage, languageChain, supportedLanguages, type Language } from '../i18n/languages';
import { editDistance } from '../holdings/columns';

/** One text for every language, or a text per language (tags as given; checked by localText). */
export const localTextSchema = (max: number) => {
  const text = z.string().trim().min(1).max(max);
  return z.union([text, z.record(z.string(), text)]);
};

/** A text per language, or `all` for every language alike (a plain string in the brand file). */
export type LocalText = { all: string } | { by: Partial<Record<Language, string>> };

/**
 * The brand file's value checked: each key a supported tag (any case: "DE-ch" is de-CH; a near
 * miss named: "de-DE (did you mean de?)"), none twice, and the firm's default language among
 * them, so every client has a text to fall back on. Throws a message naming the key.
 */
export function localText(key: string, value: string | Record<string, string>, firmLanguage: Language): LocalText {
  if (typeof value === 'string') return { all: value };
  const by: Partial<Record<Language, string>> = {};
  for (const [tag, text] of Object.entries(value)) {
    const lang = asLanguage(tag);
    if (!lang) throw new Error(`${key}: "${tag}" is not a supported language${nearest(tag)}; the languages are ${supportedLanguages()}`);
    if (by[lang] !== undefined) throw new Error(`${key}: ${lang} is given twice`);
    by[lang] = text;
  }
  if (by[firmLanguage] === undefined) {
    throw new Error(`${key}: gives no text in ${firmLanguage}, the firm's language (the brand's "language", default en): it is what a client in a language not given reads`);
  }
  return { by };
}

/** " (did you mean de?)": the supported tag a mistyped one most likely meant ("de-DE", "zh-CN", "fr_FR"). */
export function nearest(tag: string): string {
  const t = tag.trim().toLowerCase().replace(/_/g, '-');
  // A region we do not support reads as its language: de-AT → de, zh-CN → zh-Hans.
  const base = LANGUAGES.find((l) => l.toLowerCase() === t.split('-')[0] || (t.startsWith('zh') && l === 'zh-Hans'));
  if (base) return ` (did you mean ${base}?)`;
  // Two letters a slip from another language's ("pt", "it") name another language, not a typo.
  if (t.length <= 3) return '';
  let best: { lang: string; distance: number } | undefined;
  for (const l of LANGUAGES) {
    const d = editDistance(t, l.toLowerCase());
    if (d <= 2 && (!best || d < best.distance)) best = { lang: l, distance: d };
  }
  return best ? ` (did you mean ${best.lang}?)` : '';
}

/**
 * A text in `lang`: its own, else the language it is a variant of, else the firm's default
 * language's, saying so (`missing`) so the run can warn naming the portfolio.
 */
export function pickText(text: LocalText, lang: Language, firmLanguage: Language): { text: string; missing: boolean } {
  if ('all' in text) return { text: text.all, missing: false };
  for (const l of languageChain(lang)) {
    const t = text.by[l];
    if (t !== undefined) return { text: t, missing: false };
  }
  return { text: text.by[firmLanguage]!, missing: true };
}

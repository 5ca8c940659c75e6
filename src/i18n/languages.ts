/**
 * The languages client documents are written in (issue 36): BCP 47 tags, their text direction,
 * and the chain a catalogue falls back along when a message is missing in a language.
 */

/** The supported tags, in the spelling the reports, files and CLI use. */
export const LANGUAGES = ['en', 'en-GB', 'de', 'de-CH', 'fr', 'fr-CH', 'it', 'es', 'zh-Hans', 'ja', 'ar'] as const;

/**
 * A pseudo-locale for tests and QA only, never for a client: English with every Latin letter
 * accented and each message padded to 140 %, so a hard-coded string (not accented) or a box too
 * narrow for a longer language (overflow) shows. Accepted wherever a language is.
 */
export const PSEUDO_LANGUAGE = 'en-XA';

export type Language = (typeof LANGUAGES)[number] | typeof PSEUDO_LANGUAGE;

export const DEFAULT_LANGUAGE: Language = 'en';

const ALL: readonly Language[] = [...LANGUAGES, PSEUDO_LANGUAGE];
const BY_LOWER = new Map<string, Language>(ALL.map((l) => [l.toLowerCase(), l]));

/** A tag outside the supported ones: bad usage (exit 2 in the CLI). */
export class LanguageError extends Error {
  override name = 'LanguageError';
}

/** "en, en-GB, de, …": the supported tags as messages list them. */
export const supportedLanguages = (): string => LANGUAGES.join(', ');

/** The supported tag a text names ("de-ch" → "de-CH", " zh-hans " → "zh-Hans"), or undefined. */
export function asLanguage(tag: string): Language | undefined {
  return BY_LOWER.get(tag.trim().replace(/_/g, '-').toLowerCase());
}

/**
 * The supported tag a text names, case-insensitively; anything else throws LanguageError naming
 * `where` (an option, a file's row and field) and listing the supported tags.
 */
export function parseLanguage(tag: string, where: string): Language {
  const lang = asLanguage(tag);
  if (lang) return lang;
  const shown = tag.length > 40 ? `${tag.slice(0, 40)}…` : tag;
  throw new LanguageError(`${where}: "${shown}" is not a supported language; use one of ${supportedLanguages()}`);
}

const RTL = new Set<Language>(['ar']);

export function textDirection(lang: Language): 'ltr' | 'rtl' {
  return RTL.has(lang) ? 'rtl' : 'ltr';
}

const PARENT: Partial<Record<Language, Language>> = {
  'en-GB': 'en',
  'de-CH': 'de',
  'fr-CH': 'fr',
  // The pseudo-locale is made from English at run time (pseudo.ts), so English is its only source.
  'en-XA': 'en',
};

/** A language and the ones it is a variant of: de-CH → de, en-GB → en; ja alone. */
export function languageChain(lang: Language): Language[] {
  const chain: Language[] = [lang];
  for (let l = PARENT[lang]; l; l = PARENT[l]) chain.push(l);
  return chain;
}

/** Where a catalogue message missing in `lang` is looked for next, ending in English: de-CH → de → en. */
export function fallbackChain(lang: Language): Language[] {
  const chain = languageChain(lang);
  return chain.includes('en') ? chain : [...chain, 'en'];
}

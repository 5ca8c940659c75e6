export { LANGUAGES, PSEUDO_LANGUAGE, DEFAULT_LANGUAGE, LanguageError, asLanguage, parseLanguage, supportedLanguages, textDirection, fallbackChain, type Language } from './languages';
export { translator, type Translator, type MessageValues } from './translator';
export type { MessageKey } from './catalogues';
export { NO_VALUE, intlLocale, isHouseEnglish, type Formats, type PercentOptions } from './formats';

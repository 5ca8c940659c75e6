import { describe, expect, it } from 'vitest';
import { LANGUAGES, LanguageError, fallbackChain, parseLanguage, textDirection } from '../../src/i18n';

describe('languages', () => {
  it('takes a supported tag in any case and spells it as BCP 47 does', () => {
    expect(parseLanguage('de-ch', '--language')).toBe('de-CH');
    expect(parseLanguage('ZH-HANS', '--language')).toBe('zh-Hans');
    expect(parseLanguage(' en-gb ', '--language')).toBe('en-GB');
    expect(parseLanguage('en-xa', '--language')).toBe('en-XA');
    for (const l of LANGUAGES) expect(parseLanguage(l.toUpperCase(), 'x')).toBe(l);
  });

  it('refuses another tag, naming where it was and listing the supported ones', () => {
    for (const bad of ['de-AT', 'pt', 'zh', 'english', '', 'de-CH-x']) {
      expect(() => parseLanguage(bad, 'clients.csv row 4, language')).toThrow(LanguageError);
    }
    // A huge or hostile value is cut in the message, never echoed whole.
    expect(() => parseLanguage('x'.repeat(100_000), '--language')).toThrow(/^--language: "x{40}…" is not a supported language/);
    expect(() => parseLanguage('pt', 'clients.csv row 4, language')).toThrow(
      'clients.csv row 4, language: "pt" is not a supported language; use one of en, en-GB, de, de-CH, fr, fr-CH, it, es, zh-Hans, ja, ar',
    );
  });

  it('writes Arabic right to left and every other language left to right', () => {
    expect(textDirection('ar')).toBe('rtl');
    for (const l of LANGUAGES.filter((l) => l !== 'ar')) expect(textDirection(l)).toBe('ltr');
  });

  it('falls back from a regional language to its language, then English', () => {
    expect(fallbackChain('de-CH')).toEqual(['de-CH', 'de', 'en']);
    expect(fallbackChain('fr-CH')).toEqual(['fr-CH', 'fr', 'en']);
    expect(fallbackChain('en-GB')).toEqual(['en-GB', 'en']);
    expect(fallbackChain('ja')).toEqual(['ja', 'en']);
    expect(fallbackChain('en')).toEqual(['en']);
    expect(fallbackChain('en-XA')).toEqual(['en-XA', 'en']);
  });
});

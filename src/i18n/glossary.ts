/**
 * docs/glossary.md from the `common` catalogue: each financial term in every language, one table
 * (regenerate with `npx tsx src/i18n/write-glossary.ts`; test/i18n/glossary.test.ts keeps it current).
 */
import { AREAS } from './catalogues';
import { LANGUAGES, languageChain, type Language } from './languages';

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function glossaryMarkdown(): string {
  const common = AREAS.common;
  const inLanguage = (lang: Language, key: keyof typeof common.en): string => {
    for (const l of languageChain(lang)) {
      const t = l === 'en' ? common.en[key] : common.translations[l as Exclude<Language, 'en'>]?.[key];
      if (t !== undefined) return t;
    }
    return '';
  };
  const keys = Object.keys(common.en) as (keyof typeof common.en)[];
  const lines = [
    '# Glossary: the financial terms of the client documents',
    '',
    'Generated from `src/i18n/messages/common/` (do not edit by hand: change the catalogue, then run',
    '`npx tsx src/i18n/write-glossary.ts`). Each term as a private bank in that market says it; a regional',
    'language (en-GB, de-CH, fr-CH) shows its own word where it has one and its language\'s otherwise.',
    'Messages with `{…}` are ICU MessageFormat: `{count, plural, …}` chooses by the language\'s plural rules.',
    '',
    `| key | ${LANGUAGES.join(' | ')} |`,
    `|${'---|'.repeat(LANGUAGES.length + 1)}`,
    ...keys.map((k) => `| \`common.${k}\` | ${LANGUAGES.map((l) => cell(inLanguage(l, k))).join(' | ')} |`),
    '',
  ];
  return lines.join('\n');
}

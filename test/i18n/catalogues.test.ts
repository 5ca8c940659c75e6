import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../../src/i18n/catalogues';
import { LANGUAGES, PSEUDO_LANGUAGE, fallbackChain, translator, type Language, type MessageKey } from '../../src/i18n';

type Catalogue = Record<string, string | undefined>;
const areas = Object.entries(AREAS) as [string, { en: Catalogue; translations: Partial<Record<Language, Catalogue>> }][];
const messageOf = (a: { en: Catalogue; translations: Partial<Record<Language, Catalogue>> }, l: Language, key: string) =>
  l === 'en' ? a.en[key] : a.translations[l]?.[key];

/** The argument names a message uses ("{count, plural, …}" → count). */
function argumentsOf(message: string, locale: string): string[] {
  const names = new Set<string>();
  const walk = (nodes: unknown[]) => {
    for (const n of nodes as { type: number; value?: unknown; options?: Record<string, { value: unknown[] }>; children?: unknown[] }[]) {
      if (n.type >= 1 && n.type <= 6 && typeof n.value === 'string') names.add(n.value);
      for (const o of Object.values(n.options ?? {})) walk(o.value);
      if (n.children) walk(n.children);
    }
  };
  walk(new IntlMessageFormat(message, locale).getAst() as unknown[]);
  return [...names].sort();
}

describe('catalogues', () => {
  for (const [name, area] of areas) {
    it(`${name}: every language has every English key, itself or through its chain`, () => {
      for (const l of LANGUAGES) {
        // English is every language's last resort, but a language of its own only for English's variants (en-GB).
        const own = fallbackChain(l).filter((c) => c !== 'en' || l.startsWith('en'));
        const missing = Object.keys(area.en).filter((k) => !own.some((c) => messageOf(area, c, k) !== undefined));
        expect({ lang: l, missing }).toEqual({ lang: l, missing: [] });
      }
    });

    it(`${name}: no language has a key English lacks, and each message parses with the same arguments`, () => {
      for (const [l, messages] of Object.entries(area.translations) as [Language, Catalogue][]) {
        expect({ lang: l, extra: Object.keys(messages).filter((k) => !(k in area.en)) }).toEqual({ lang: l, extra: [] });
        for (const [k, m] of Object.entries(messages)) expect({ lang: l, key: k, args: argumentsOf(m!, l) }).toEqual({ lang: l, key: k, args: argumentsOf(area.en[k]!, 'en') });
      }
    });

    it(`${name}: every message formats in every language, and in the pseudo-locale has no unaccented letter`, () => {
      for (const key of Object.keys(area.en)) {
        const values = Object.fromEntries(argumentsOf(area.en[key]!, 'en').map((a) => [a, 2]));
        const full = `${name}.${key}` as MessageKey;
        for (const l of LANGUAGES) expect(translator(l).t(full, values).length, `${l} ${full}`).toBeGreaterThan(0);
        expect(translator(PSEUDO_LANGUAGE).t(full, values), full).not.toMatch(/[A-Za-z]/);
      }
    });
  }
});

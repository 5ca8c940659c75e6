/**
 * One language's words, numbers and dates for a client document (issue 36): messages from the
 * catalogues in ICU MessageFormat (FormatJS intl-messageformat: plurals and selects by the
 * language's rules), figures and dates through Intl (formats.ts).
 */
import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import { AREAS, type MessageKey } from './catalogues';
import type { Messages } from './catalogue';
import { formatsFor, type Formats } from './formats';
import { PSEUDO_LANGUAGE, fallbackChain, textDirection, type Language } from './languages';
import { pseudoMessage } from './pseudo';

export type MessageValues = Record<string, PrimitiveType>;

export interface Translator extends Formats {
  readonly lang: Language;
  readonly dir: 'ltr' | 'rtl';
  /** The message in the language, else along its fallback chain (de-CH → de → en); never the key. */
  t(key: MessageKey, values?: MessageValues): string;
}

/** The text of a message in `lang` or the nearest language of its chain that has it. */
function sourceOf(key: MessageKey, lang: Language): { text: string; from: Language } {
  const dot = key.indexOf('.');
  const area = AREAS[key.slice(0, dot) as keyof typeof AREAS] as { en: Messages; translations: Partial<Record<Language, Partial<Messages>>> } | undefined;
  const name = key.slice(dot + 1);
  if (area) {
    for (const l of fallbackChain(lang)) {
      const text = l === 'en' ? area.en[name] : area.translations[l]?.[name];
      if (text !== undefined) return { text, from: l };
    }
  }
  // Only a key outside the typed set reaches here (a cast, or a key made of text): a bug, not a client's text.
  throw new Error(`no message "${key}" in the catalogues`);
}

/** The Intl locale messages format their plurals and numbers with: the pseudo-locale speaks English. */
const messageLocale = (lang: Language) => (lang === PSEUDO_LANGUAGE ? 'en' : lang);

function makeTranslator(lang: Language): Translator {
  const compiled = new Map<MessageKey, IntlMessageFormat>();
  const message = (key: MessageKey): IntlMessageFormat => {
    let m = compiled.get(key);
    if (!m) {
      const { text } = sourceOf(key, lang);
      m = new IntlMessageFormat(lang === PSEUDO_LANGUAGE ? pseudoMessage(text) : text, messageLocale(lang));
      compiled.set(key, m);
    }
    return m;
  };
  return {
    lang,
    dir: textDirection(lang),
    ...formatsFor(lang),
    t: (key, values) => String(message(key).format(values)),
  };
}

const translators = new Map<Language, Translator>();

/** The translator of a language, made once per process. */
export function translator(lang: Language): Translator {
  let tr = translators.get(lang);
  if (!tr) translators.set(lang, (tr = makeTranslator(lang)));
  return tr;
}

/**
 * The firm's words in a client document's language (issue 36): what the writers call instead of
 * reading brand.coverTitle, brand.footer, brand.disclosures and a manager's title directly.
 */
import type { Language } from '../i18n/languages';
import type { Brand, Manager } from './load-brand';
import { paragraphs } from './load-brand';
import { pickText, type LocalText } from './local-text';

/** Who is told when a text is missing in the client's language: the portfolio it is for, and where to say it. */
export interface BrandTextWarning {
  portfolio: string;
  warn(line: string): void;
}

type BrandTexts = { cover_title: string | undefined; footer: string | undefined; disclosures: string[]; insurance_letter: string[] };
export type BrandTextField = keyof BrandTexts;

function inLanguage(text: LocalText | undefined, what: string, brand: Pick<Brand, 'language' | 'firmName'>, lang: Language, to: BrandTextWarning): string | undefined {
  if (!text) return undefined;
  const picked = pickText(text, lang, brand.language);
  if (picked.missing) to.warn(`Portfolio "${to.portfolio}": the brand's ${what} has no text in ${lang}; its ${brand.language} text (the firm's language) is used.`);
  return picked.text;
}

/** The brand's cover title, footer, disclosures or insurance letter (paragraphs) in `lang`, else the firm's language's with a warning naming the portfolio. */
export function brandText<F extends BrandTextField>(brand: Pick<Brand, 'language' | 'localised' | 'firmName'>, field: F, lang: Language, to: BrandTextWarning): BrandTexts[F] {
  const text = inLanguage(brand.localised[field], field, brand, lang, to);
  return (field === 'disclosures' || field === 'insurance_letter' ? paragraphs(text) : text) as BrandTexts[F];
}

/** A relationship manager's title in `lang`, else the firm's language's with a warning naming the portfolio; undefined when none is given. */
export function managerTitle(brand: Pick<Brand, 'language' | 'firmName'>, manager: Manager, lang: Language, to: BrandTextWarning): string | undefined {
  return inLanguage(manager.title, `title of ${manager.name}`, brand, lang, to);
}
